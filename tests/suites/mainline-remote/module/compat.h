/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What mainline's kernel/trace/remote_test.c uses of 7.x outside tracing,
 * for 6.12: the typed allocation helpers of <linux/slab.h>, with their
 * default GFP_KERNEL.  Passed to the compiler with -include, so that the
 * module's source is mainline's, unchanged (scripts/mainline-remote.sh).
 */
#include <linux/slab.h>

#ifndef kmalloc_obj
#define kmalloc_obj(VAR_OR_TYPE, ...)					\
	kmalloc(sizeof(VAR_OR_TYPE), GFP_KERNEL)
#define kmalloc_objs(VAR_OR_TYPE, COUNT, ...)				\
	kmalloc_array(COUNT, sizeof(VAR_OR_TYPE), GFP_KERNEL)
#endif
