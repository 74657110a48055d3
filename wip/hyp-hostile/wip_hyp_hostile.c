// SPDX-License-Identifier: GPL-2.0
/*
 * Throwaway (helper hyp): a hostile host against hypervisor tracing, in
 * protected mode. Calls the tracing hypercalls directly with broken
 * descriptors, then scribbles on the shared pages of a valid one.
 * Prints "TR-RESULT PASS|FAIL name" lines on the console.
 */
#include <linux/arm-smccc.h>
#include <linux/gfp.h>
#include <linux/module.h>
#include <linux/ring_buffer.h>
#include <linux/random.h>
#include <linux/smp.h>
#include <asm/kvm_asm.h>
#include <asm/virt.h>
#include <asm/kvm_host.h>

#define NR_TCPUS	2
#define NR_TPAGES	3

static long hc(unsigned long id, unsigned long a1, unsigned long a2,
	       unsigned long a3, unsigned long a4)
{
	struct arm_smccc_res res;

	arm_smccc_1_1_hvc(KVM_HOST_SMCCC_ID(id), a1, a2, a3, a4, &res);
	if (res.a0 != SMCCC_RET_SUCCESS)
		return -9999;
	return (long)(int)res.a1;
}

#define HC(f, ...) hc(__KVM_HOST_SMCCC_FUNC_##f, ##__VA_ARGS__)
#define HC0(f) hc(__KVM_HOST_SMCCC_FUNC_##f, 0, 0, 0, 0)
#define HC1(f, a) hc(__KVM_HOST_SMCCC_FUNC_##f, a, 0, 0, 0)
#define HC2(f, a, b) hc(__KVM_HOST_SMCCC_FUNC_##f, a, b, 0, 0)

static int failed;

static void check(const char *name, bool ok, long ret)
{
	pr_info("TR-RESULT %s hostile-%s (%ld)\n", ok ? "PASS" : "FAIL", name, ret);
	if (!ok)
		failed++;
}

static unsigned long meta[NR_TCPUS], pages[NR_TCPUS][NR_TPAGES], spare;
static void *descp;

static size_t build(struct trace_buffer_desc *d)
{
	struct ring_buffer_desc *rb;
	int c, i;

	memset(d, 0, PAGE_SIZE);
	d->nr_cpus = NR_TCPUS;
	d->struct_len = offsetof(struct trace_buffer_desc, __data);
	rb = (void *)d->__data;
	for (c = 0; c < NR_TCPUS; c++) {
		rb->cpu = c;
		rb->nr_page_va = NR_TPAGES;
		rb->meta_va = meta[c];
		for (i = 0; i < NR_TPAGES; i++)
			rb->page_va[i] = pages[c][i];
		d->struct_len += struct_size(rb, page_va, NR_TPAGES);
		rb = (void *)rb + struct_size(rb, page_va, NR_TPAGES);
	}
	return d->struct_len;
}

static struct ring_buffer_desc *rbd(struct trace_buffer_desc *d, int c)
{
	return (void *)d->__data + c * struct_size_t(struct ring_buffer_desc, page_va, NR_TPAGES);
}

/* Load a broken descriptor: must fail, and the host must get the page back */
static void bad(const char *name, unsigned long va, size_t size)
{
	long ret = HC2(__tracing_load, va, size);

	check(name, ret < 0 && ret != -9999, ret);
	if (!ret)
		HC0(__tracing_unload);
	/* Faults (hyp panic) if the hypervisor kept the page */
	WRITE_ONCE(*(u64 *)descp, 0);
}

static int share(unsigned long va)
{
	return hc(__KVM_HOST_SMCCC_FUNC___pkvm_host_share_hyp, __pa(va) >> PAGE_SHIFT, 0, 0, 0);
}

static int unshare(unsigned long va)
{
	return hc(__KVM_HOST_SMCCC_FUNC___pkvm_host_unshare_hyp, __pa(va) >> PAGE_SHIFT, 0, 0, 0);
}

static void writer(void *unused)
{
	int i;

	for (i = 0; i < 200; i++)
		HC1(__tracing_write_event, i);
}

static int __init hostile_init(void)
{
	struct trace_buffer_desc *d;
	long ret;
	int c, i, round;

	if (!is_protected_kvm_enabled()) {
		pr_info("TR-RESULT SKIP hostile not in protected mode\n");
		return -EAGAIN;
	}

	descp = (void *)__get_free_page(GFP_KERNEL | __GFP_ZERO);
	spare = __get_free_page(GFP_KERNEL | __GFP_ZERO);
	for (c = 0; c < NR_TCPUS; c++) {
		meta[c] = __get_free_page(GFP_KERNEL | __GFP_ZERO);
		share(meta[c]);
		for (i = 0; i < NR_TPAGES; i++) {
			pages[c][i] = __get_free_page(GFP_KERNEL | __GFP_ZERO);
			check("share", !share(pages[c][i]), 0);
		}
	}
	d = descp;

	check("write-unloaded", HC1(__tracing_write_event, 1) == -ENODEV, 0);
	check("unload-unloaded", HC0(__tracing_unload) == -ENODEV, 0);
	check("swap-unloaded", HC1(__tracing_swap_reader, 0) == -ENODEV, 0);
	check("enable-unloaded", HC1(__tracing_enable, 1) == -ENODEV, 0);
	check("event-bad-id", HC2(__tracing_enable_event, 0, 1) == -EINVAL, 0);
	check("event-bad-id2", HC2(__tracing_enable_event, 1000, 1) == -EINVAL, 0);
	check("clock-bad", HC(__tracing_update_clock, 0, 10, 0, 0) == -EINVAL, 0);

	build(d);
	bad("unaligned", (unsigned long)d + 8, PAGE_SIZE);
	bad("size-0", (unsigned long)d, 0);
	bad("size-huge", (unsigned long)d, SZ_1G);
	bad("null", 0, PAGE_SIZE);
	bad("not-memory", (unsigned long)__va(0x400000000UL), PAGE_SIZE);
	bad("shared-page-as-desc", meta[0], PAGE_SIZE);
	d->nr_cpus = 0; bad("nr_cpus-0", (unsigned long)d, PAGE_SIZE);
	build(d); d->nr_cpus = -1; bad("nr_cpus-neg", (unsigned long)d, PAGE_SIZE);
	build(d); d->nr_cpus = 100000; bad("nr_cpus-huge", (unsigned long)d, PAGE_SIZE);
	build(d); d->nr_cpus = 3; bad("nr_cpus-past-struct_len", (unsigned long)d, PAGE_SIZE);
	build(d); d->struct_len = 2 * PAGE_SIZE; bad("struct_len-big", (unsigned long)d, PAGE_SIZE);
	build(d); d->struct_len = 8; bad("struct_len-small", (unsigned long)d, PAGE_SIZE);
	build(d); d->struct_len -= 8; bad("struct_len-short", (unsigned long)d, PAGE_SIZE);
	build(d); rbd(d, 1)->cpu = 0; bad("cpu-dup", (unsigned long)d, PAGE_SIZE);
	build(d); rbd(d, 1)->cpu = -1; bad("cpu-neg", (unsigned long)d, PAGE_SIZE);
	build(d); rbd(d, 1)->cpu = 64; bad("cpu-range", (unsigned long)d, PAGE_SIZE);
	build(d); rbd(d, 1)->cpu = nr_cpu_ids; bad("cpu-nr_cpu_ids", (unsigned long)d, PAGE_SIZE);
	build(d); rbd(d, 0)->nr_page_va = 2; bad("nr_page_va-2", (unsigned long)d, PAGE_SIZE);
	build(d); rbd(d, 0)->nr_page_va = 0x7fffffff; bad("nr_page_va-huge", (unsigned long)d, PAGE_SIZE);
	build(d); rbd(d, 0)->nr_page_va = 4; bad("nr_page_va-shifted", (unsigned long)d, PAGE_SIZE);
	build(d); rbd(d, 1)->page_va[2] = pages[1][1]; bad("page-dup", (unsigned long)d, PAGE_SIZE);
	build(d); rbd(d, 1)->page_va[0] = pages[0][0]; bad("page-dup-cpus", (unsigned long)d, PAGE_SIZE);
	build(d); rbd(d, 0)->meta_va = pages[0][2]; bad("meta-is-page", (unsigned long)d, PAGE_SIZE);
	build(d); rbd(d, 1)->meta_va = meta[0]; bad("meta-dup", (unsigned long)d, PAGE_SIZE);
	build(d); rbd(d, 1)->page_va[1] = spare; bad("page-not-shared", (unsigned long)d, PAGE_SIZE);
	build(d); rbd(d, 1)->page_va[1] = (unsigned long)d; bad("page-is-desc", (unsigned long)d, PAGE_SIZE);
	build(d); rbd(d, 1)->page_va[1] += 64; bad("page-unaligned", (unsigned long)d, PAGE_SIZE);
	build(d); rbd(d, 1)->page_va[1] = 0; bad("page-null", (unsigned long)d, PAGE_SIZE);
	build(d); rbd(d, 1)->meta_va = 0xffff000000000000UL; bad("meta-bogus", (unsigned long)d, PAGE_SIZE);
	build(d); rbd(d, 1)->page_va[0] = (unsigned long)__va(0x400000000UL);
	bad("page-not-memory", (unsigned long)d, PAGE_SIZE);
	/* 200 pages for one CPU: the writer's page descriptors do not fit */
	memset(d, 0, PAGE_SIZE);
	d->nr_cpus = 1;
	d->struct_len = offsetof(struct trace_buffer_desc, __data) +
			struct_size_t(struct ring_buffer_desc, page_va, 200);
	rbd(d, 0)->nr_page_va = 200;
	rbd(d, 0)->meta_va = meta[0];
	for (i = 0; i < 200; i++)
		rbd(d, 0)->page_va[i] = pages[0][i % NR_TPAGES];
	bad("no-room-for-backing", (unsigned long)d, PAGE_SIZE);

	/* A valid load: fails if a broken one leaked a pin */
	build(d);
	ret = HC2(__tracing_load, (unsigned long)d, PAGE_SIZE);
	check("load-valid", ret == 0, ret);
	if (ret)
		goto out;
	check("load-twice", HC2(__tracing_load, (unsigned long)d, PAGE_SIZE) < 0, 0);
	check("unshare-pinned", unshare(pages[0][1]) < 0, 0);
	check("enable", HC1(__tracing_enable, 1) == 0, 0);
	HC2(__tracing_enable_event, 6, 1);
	HC2(__tracing_enable_event, 1, 1);
	HC2(__tracing_enable_event, 2, 1);
	HC2(__tracing_enable_event, 3, 1);
	for (round = 0; round < 50; round++) {
		for (c = 0; c < NR_TCPUS; c++) {
			get_random_bytes((void *)meta[c], PAGE_SIZE);
			for (i = 0; i < NR_TPAGES; i++)
				get_random_bytes((void *)pages[c][i], PAGE_SIZE);
		}
		on_each_cpu(writer, NULL, 0);
		writer(NULL);
		HC1(__tracing_swap_reader, round % 3);
		HC1(__tracing_swap_reader, get_random_u32());
		HC1(__tracing_reset, get_random_u32());
		if (round % 7 == 0)
			HC1(__tracing_reset, round % 2);
		HC(__tracing_update_clock, get_random_u32() | 1, get_random_u32() % 64,
		   get_random_u64(), get_random_u64());
	}
	check("survived-scribbling", true, 0);
	check("swap-bad-cpu", HC1(__tracing_swap_reader, 100000) < 0, 0);
	check("disable", HC1(__tracing_enable, 0) == 0, 0);
	check("unload", HC0(__tracing_unload) == 0, 0);
	check("desc-back-wiped", !memchr_inv(d, 0, PAGE_SIZE), 0);
	check("unload-twice", HC0(__tracing_unload) == -ENODEV, 0);
	for (i = 1; i <= 6; i++)
		HC2(__tracing_enable_event, i, 0);
out:
	for (c = 0; c < NR_TCPUS; c++) {
		ret = unshare(meta[c]);
		for (i = 0; i < NR_TPAGES; i++)
			ret |= unshare(pages[c][i]);
		check("unshare-after-unload", ret == 0, ret);
	}
	/* Sane clock again, for the real remote */
	check("done", failed == 0, failed);
	/* The pages may have been scribbled over: only free what we own */
	return -EAGAIN;
}
module_init(hostile_init);
MODULE_LICENSE("GPL");
