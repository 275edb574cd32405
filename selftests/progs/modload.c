// SPDX-License-Identifier: GPL-2.0
/*
 * modload: load a module with finit_module(2), exactly once.
 *
 * busybox insmod retries a failed finit_module with init_module, so every
 * refused load would run the module's init (and log its message) twice.
 * The tests need one attempt per load to count log lines.
 *
 * usage: modload FILE.ko [param=value ...]
 * exit:  0 on success; 1 with "modload: <strerror>" on failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t len = 1;
	char *params;
	int fd, i;

	if (argc < 2) {
		fprintf(stderr, "usage: modload FILE.ko [param=value ...]\n");
		return 2;
	}
	for (i = 2; i < argc; i++)
		len += strlen(argv[i]) + 1;
	params = calloc(1, len);
	if (!params)
		return 1;
	for (i = 2; i < argc; i++) {
		if (i > 2)
			strcat(params, " ");
		strcat(params, argv[i]);
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "modload: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (syscall(SYS_finit_module, fd, params, 0)) {
		fprintf(stderr, "modload: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
