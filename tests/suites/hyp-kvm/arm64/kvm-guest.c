// SPDX-License-Identifier: GPL-2.0
/*
 * kvm-guest [N]: run a tiny arm64 KVM guest that stores an incrementing
 * counter to an unmapped (MMIO) address, and take N MMIO exits from it.
 * Each exit is a guest exit to EL2 and a return to the host, so that the
 * hypervisor trace sees guest entries and exits. Prints the time per exit
 * (KVM_RUN to KVM_RUN, CLOCK_MONOTONIC) for make bench.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/kvm.h>

#define CODE_IPA 0x10000UL
#define MMIO_IPA 0x1000UL

static void die(const char *what)
{
	printf("kvm-guest: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void set_reg(int vcpu, uint64_t id, uint64_t val)
{
	struct kvm_one_reg reg = { .id = id, .addr = (uint64_t)&val };

	if (ioctl(vcpu, KVM_SET_ONE_REG, &reg))
		die("KVM_SET_ONE_REG");
}

#define CORE_REG(x) (KVM_REG_ARM64 | KVM_REG_SIZE_U64 | KVM_REG_ARM_CORE | \
		     (offsetof(struct kvm_regs, x) / sizeof(uint32_t)))

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10, i, kvm, vm, vcpu;
	uint32_t code[] = {
		0xf9000001,	/* str x1, [x0] */
		0x91000421,	/* add x1, x1, #1 */
		0x17fffffe,	/* b .-8 */
	};
	struct kvm_userspace_memory_region region;
	struct kvm_vcpu_init init;
	struct kvm_run *run;
	struct timespec t0, t1;
	double ns;
	void *mem;
	long size;

	kvm = open("/dev/kvm", O_RDWR);
	if (kvm < 0)
		die("/dev/kvm");
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0)
		die("KVM_CREATE_VM");
	mem = mmap(NULL, 0x10000, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		die("mmap");
	memcpy(mem, code, sizeof(code));
	region = (struct kvm_userspace_memory_region){
		.slot = 0, .guest_phys_addr = CODE_IPA, .memory_size = 0x10000,
		.userspace_addr = (uint64_t)mem,
	};
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region))
		die("KVM_SET_USER_MEMORY_REGION");
	vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	if (vcpu < 0)
		die("KVM_CREATE_VCPU");
	if (ioctl(vm, KVM_ARM_PREFERRED_TARGET, &init))
		die("KVM_ARM_PREFERRED_TARGET");
	if (ioctl(vcpu, KVM_ARM_VCPU_INIT, &init))
		die("KVM_ARM_VCPU_INIT");
	size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	run = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	if (run == MAP_FAILED)
		die("mmap run");
	set_reg(vcpu, CORE_REG(regs.pc), CODE_IPA);
	set_reg(vcpu, CORE_REG(regs.regs[0]), MMIO_IPA);
	set_reg(vcpu, CORE_REG(regs.regs[1]), 1);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++) {
		if (ioctl(vcpu, KVM_RUN, 0))
			die("KVM_RUN");
		if (run->exit_reason != KVM_EXIT_MMIO) {
			printf("kvm-guest: unexpected exit %u\n", run->exit_reason);
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ns = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
	printf("kvm-guest: %d MMIO exits, last value %llu, %.1f ns/exit\n", n,
	       (unsigned long long)*(uint64_t *)run->mmio.data, n > 0 ? ns / n : 0);

	/* The guest counts from 1, one store per exit. */
	return *(uint64_t *)run->mmio.data == (uint64_t)n ? 0 : 1;
}
