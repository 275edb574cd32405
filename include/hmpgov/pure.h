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
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#endif

/* The scheduler's capacity scale: the biggest CPU at its top frequency. */
#define HMPGOV_CAPACITY_SHIFT	10
#define HMPGOV_CAPACITY_SCALE	(1U << HMPGOV_CAPACITY_SHIFT)

#endif /* HMPGOV_PURE_H */
