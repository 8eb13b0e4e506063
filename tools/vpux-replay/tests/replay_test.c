// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux-replay on dumps written here, as the kernel writes them
 * (vpux_coredump.h): a one-op copy from entry 1 to entry 2, with each
 * entry's read-only flag as the dump records it. The replay must give
 * the engine core the same flags the kernel gave it: a copy into a
 * read-only entry is refused with DLA_ERR_READONLY as the kernel refused
 * it, and a copy into a writable one completes. Each replay runs under
 * valgrind when it is installed, so a flag read from memory nobody
 * wrote fails the test even when the garbage happens to be right.
 *
 * Usage: replay_test VPUX-REPLAY
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "task_builder.h"
#include "vpux_coredump.h"
#include "vpux_tap.h"

#define SZ	4096u
#define VA_TASK	(VPUX_DEFAULT_VA_BASE + 0x100000ull)
#define VA_SRC	(VPUX_DEFAULT_VA_BASE + 0x200000ull)
#define VA_DST	(VPUX_DEFAULT_VA_BASE + 0x300000ull)

static const char *replay_bin;
static char tmpdir[] = "/tmp/vpux-replay-test.XXXXXX";
static int use_valgrind;

/*
 * Write a dump of the copy to @path: @ro_src/@ro_dst set the entries'
 * read-only flags, @status/@flags/@core_error the job's end.
 */
static int write_dump(const char *path, int ro_src, int ro_dst,
		      uint32_t status, uint32_t flags, uint32_t core_error)
{
	static const char text[] = "vpux job report (replay_test)\n";
	struct vpux_dump_header h;
	struct vpux_dump_entry ent[3];
	unsigned char task[256], src[SZ], dst[SZ], pad[8] = { 0 };
	size_t tlen, i;
	struct tb t;
	FILE *f;

	tb_init(&t, NULL, 0, 1, 0, 0);
	tb_copy(&t.dma[0], tb_ref(1, 0, SZ), tb_ref(2, 0, SZ), SZ);
	tlen = t.size;
	if (tlen > sizeof(task)) {
		free(t.buf);
		return -1;
	}
	memcpy(task, t.buf, tlen);
	free(t.buf);
	for (i = 0; i < SZ; i++) {
		src[i] = (unsigned char)(i * 7 + 3);
		dst[i] = 0;
	}
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, VPUX_DUMP_MAGIC, sizeof(h.magic));
	h.version = VPUX_DUMP_VERSION;
	h.header_size = sizeof(h);
	h.entry_size = sizeof(ent[0]);
	h.n_entries = 3;
	h.flags = flags;
	h.cap = VPUX_DUMP_DATA_CAP;
	h.status = status;
	h.core_error = core_error;
	h.priority = 1;
	h.seqno = 1;
	memset(ent, 0, sizeof(ent));
	ent[0] = (struct vpux_dump_entry){ VA_TASK, tlen, tlen,
					   VPUX_DUMP_ENTRY_READONLY, 0 };
	ent[1] = (struct vpux_dump_entry){ VA_SRC, SZ, SZ,
		ro_src ? VPUX_DUMP_ENTRY_READONLY : 0, 0 };
	ent[2] = (struct vpux_dump_entry){ VA_DST, SZ, SZ,
		ro_dst ? VPUX_DUMP_ENTRY_READONLY : 0, 0 };
	f = fopen(path, "wb");
	if (!f)
		return -1;
	/* the text, its NUL, the appendix at the next 8-byte boundary */
	fwrite(text, 1, sizeof(text), f);
	fwrite(pad, 1, (8 - sizeof(text) % 8) % 8, f);
	fwrite(&h, sizeof(h), 1, f);
	fwrite(ent, sizeof(ent), 1, f);
	/* no op cycles; each entry's bytes padded to 8 */
	fwrite(task, 1, tlen, f);
	fwrite(pad, 1, (8 - tlen % 8) % 8, f);
	fwrite(src, 1, SZ, f);
	fwrite(dst, 1, SZ, f);
	return fclose(f) ? -1 : 0;
}

/* vpux-replay --json @dump (under valgrind if any); exit status, output */
static int run_replay(const char *dump, char *out, size_t size)
{
	char cmd[1024], log[300];
	size_t n = 0;
	FILE *f;
	int st;

	snprintf(log, sizeof(log), "%s/out", tmpdir);
	snprintf(cmd, sizeof(cmd),
		 "%s%s --json --timeout 5000 %s >%s 2>&1",
		 use_valgrind ? "valgrind -q --error-exitcode=99 " : "",
		 replay_bin, dump, log);
	st = system(cmd);
	f = fopen(log, "r");
	if (f) {
		n = fread(out, 1, size - 1, f);
		fclose(f);
	}
	out[n] = 0;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void check(const char *name, int ro_src, int ro_dst, uint32_t status,
		  uint32_t flags, uint32_t core_error, const char *want)
{
	char path[300], out[8192];
	int st;

	snprintf(path, sizeof(path), "%s/%s.dump", tmpdir, name);
	if (!tap_check(!write_dump(path, ro_src, ro_dst, status, flags,
				   core_error), "%s: dump written", name))
		return;
	st = run_replay(path, out, sizeof(out));
	if (!tap_check(st == 0 && strstr(out, "\"reproduced\":true"),
		       "%s: replay reproduces the job's end (exit %d)", name,
		       st))
		tap_diag("%s", out);
	if (!tap_check(strstr(out, want) != NULL, "%s: replay says %s", name,
		       want))
		tap_diag("%s", out);
	unlink(path);
}

int main(int argc, char **argv)
{
	char log[300];

	if (argc != 2) {
		fprintf(stderr, "usage: %s VPUX-REPLAY\n", argv[0]);
		return 2;
	}
	replay_bin = argv[1];
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	/* valgrind and the sanitizers do not mix: only an uninstrumented tool */
	use_valgrind = !system("valgrind --version >/dev/null 2>&1") &&
		       !getenv("VPUX_REPLAY_TEST_NO_VALGRIND");
	if (!use_valgrind)
		tap_diag("valgrind not found: replays run without it");
	check("writable-dst", 0, 0, 1, 0, 0, "completed (1 ops)");
	check("readonly-src", 1, 0, 1, 0, 0, "completed (1 ops)");
	/* the kernel refuses such a task at SUBMIT: a dump says so */
	check("readonly-dst", 0, 1, 2, VPUX_DUMP_REFUSED, 153,
	      "\"replay_core_error\":153");
	snprintf(log, sizeof(log), "%s/out", tmpdir);
	unlink(log);
	rmdir(tmpdir);
	return tap_finish();
}
