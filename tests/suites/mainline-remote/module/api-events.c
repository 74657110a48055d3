// SPDX-License-Identifier: GPL-2.0
/*
 * Mainline's API of trace remotes as mainline's own users write it, built
 * against the series (compile only, scripts/mainline-remote.sh; the module
 * is never loaded):
 *  - the reader side of mainline's hypervisor events: its
 *    arch/arm64/include/asm/kvm_hypevents.h and kvm_define_hypevents.h,
 *    from Debian's package, unchanged (REMOTE_EVENT_SECTION,
 *    REMOTE_EVENT_INCLUDE_FILE, <trace/define_remote_events.h>, RE_STRUCT,
 *    re_field and RE_PRINTK under mainline's HE_ names);
 *  - the calls and return conventions of mainline's kernel API.
 */
#include <linux/module.h>
#include <linux/ring_buffer.h>
#include <linux/trace_remote.h>

/* Where mainline's arch/arm64/kvm/hyp_trace.c has it */
static const char *__hyp_enter_exit_reason_str(u8 reason)
{
	return reason ? "other" : "smc";
}

#include "arch/arm64/include/asm/kvm_define_hypevents.h"

static struct trace_remote_callbacks api_cbs;

/* Mainline's calls: NULL from a failed ring_buffer_alloc_remote() */
static int __maybe_unused api_calls(struct ring_buffer_remote *rb_remote)
{
	struct remote_event *events[] = {
		&remote_event_hyp_enter, &remote_event_hyp_exit, &remote_event_selftest,
	};
	struct trace_buffer *buffer = ring_buffer_alloc_remote(rb_remote);
	char name[REMOTE_EVENT_NAME_MAX];

	if (!buffer)
		return -ENOMEM;
	ring_buffer_free(buffer);
	strscpy(name, events[0]->name);

	return trace_remote_register(name, &api_cbs, NULL, events[2], 1);
}

MODULE_DESCRIPTION("Mainline's trace remote API, compiled against the series");
MODULE_LICENSE("GPL");
