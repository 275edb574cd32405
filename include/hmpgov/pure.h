/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Types for hmpgov's pure C parts: the files that build both into the
 * module and into the host unit-test binary. Under __KERNEL__ they come
 * from the kernel; on the host from the C library. Pure files include
 * this header and nothing else from the kernel.
 */
#ifndef HMPGOV_PURE_H
#define HMPGOV_PURE_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
/* The kernel's fixed-size types, for the LP64 hosts the tests run on. */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef int s32;
typedef long long s64;

/* (a * b) >> shift in 128 bits, as the kernel's math64.h has it */
static inline u64 mul_u64_u64_shr(u64 a, u64 b, unsigned int shift)
{
	return (u64)(((__uint128_t)a * b) >> shift);
}
#endif

/* The scheduler's capacity scale: the biggest CPU at its top frequency. */
#define HMPGOV_CAPACITY_SHIFT	10
#define HMPGOV_CAPACITY_SCALE	1024U	/* 1 << HMPGOV_CAPACITY_SHIFT */

#endif /* HMPGOV_PURE_H */
