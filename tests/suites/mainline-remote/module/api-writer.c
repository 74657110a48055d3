// SPDX-License-Identifier: GPL-2.0
/*
 * The writer side of mainline's API of trace remote events, as mainline's
 * nVHE hypervisor uses it (arch/arm64/kvm/hyp/include/nvhe/trace.h): each
 * event of its kvm_hypevents.h, from Debian's package, unchanged, becomes
 * REMOTE_EVENT_FORMAT(name, struct) and a function that fills the event,
 * its header's id first.  Compile only (scripts/mainline-remote.sh).
 */
#include <linux/atomic.h>
#include <linux/trace_remote_event.h>
#include <asm/kvm_host.h>

struct api_event_id {
	unsigned short	id;
	atomic_t	enabled;
};

/* The writer's calls: reserve and commit, the vCPU's pid (none here) */
static unsigned long api_buf[8];

static void *api_reserve(unsigned long length)
{
	return length <= sizeof(api_buf) ? api_buf : NULL;
}

static void api_commit(void)
{
}

static pid_t __tracing_get_vcpu_pid(struct kvm_cpu_context *host_ctxt)
{
	return 0;
}

#define HE_PROTO(__args...)	__args
#define HE_ASSIGN(__args...)	__args
#define HE_STRUCT		RE_STRUCT
#define he_field		re_field
#define HE_PRINTK(__args...)

#define HYP_EVENT(__name, __proto, __struct, __assign, __printk)	\
	REMOTE_EVENT_FORMAT(__name, __struct);				\
	struct api_event_id api_event_id_##__name;			\
	void api_trace_##__name(__proto);				\
	void api_trace_##__name(__proto)				\
	{								\
		struct remote_event_format_##__name *__entry;		\
									\
		if (!atomic_read(&api_event_id_##__name.enabled))	\
			return;						\
		__entry = api_reserve(sizeof(*__entry));		\
		if (!__entry)						\
			return;						\
		__entry->hdr.id = api_event_id_##__name.id;		\
		__assign						\
		api_commit();						\
	}

#include "arch/arm64/include/asm/kvm_hypevents.h"
