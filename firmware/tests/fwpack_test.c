// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * fwpack (portability/baremetal/fwpack.c) on good and broken images: a
 * synthetic image packed by fwpack passes --check and its crc32 is
 * zlib's; copies with a bad magic, another ABI major, truncated, with
 * trailing bytes, a flipped byte, a bad entry, too much RAM fail, each
 * with a message that names what is wrong. The real image
 * (build/firmware/vpux_fw.bin) is checked too when it was built.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "vpux_fw_abi.h"
#include "vpux_mc.h"
#include "vpux_tap.h"

#ifndef FWPACK
#error "FWPACK: path of the fwpack program"
#endif

static char dir[] = "/tmp/fwpack-test.XXXXXX";

static void put(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(2);
	}
}

static unsigned char *get(const char *path, size_t *len)
{
	static unsigned char buf[1 << 16];
	FILE *f = fopen(path, "rb");

	if (!f)
		return NULL;
	*len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return buf;
}

/* Run fwpack with @args; its exit status, stderr in @err. */
static int run(const char *args, char *err, size_t errsz)
{
	char cmd[1024], path[256];
	size_t n = 0;
	FILE *f;
	int st;

	snprintf(path, sizeof(path), "%s/stderr", dir);
	snprintf(cmd, sizeof(cmd), "%s %s >/dev/null 2>%s", FWPACK, args, path);
	st = system(cmd);
	err[0] = '\0';
	f = fopen(path, "r");
	if (f) {
		n = fread(err, 1, errsz - 1, f);
		fclose(f);
	}
	err[n] = '\0';
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A raw image as objcopy makes it: the linker's header, then "code". */
static size_t make_raw(unsigned char *buf, size_t code)
{
	struct vpux_fw_header h;
	size_t i;

	memset(&h, 0, sizeof(h));
	h.magic = VPUX_FW_MAGIC;
	h.abi_major = VPUX_FW_ABI_MAJOR;
	h.abi_minor = VPUX_FW_ABI_MINOR;
	h.header_size = sizeof(h);
	h.load_addr = VPUX_MC_RAM_BASE;
	h.entry = VPUX_MC_RAM_BASE + sizeof(h);
	h.ram_size = 1u << 20;
	h.max_tasks = 8;
	h.max_ops = 1024;
	h.max_barriers = 1024;
	h.max_deps = 4096;
	h.max_addr_entries = 64;
	snprintf(h.version, sizeof(h.version), "vpux-fw test");
	memcpy(buf, &h, sizeof(h));
	for (i = 0; i < code; i++)
		buf[sizeof(h) + i] = (unsigned char)(i * 7 + 3);
	return sizeof(h) + code;
}

/* A broken copy of the packed image @good must fail naming @what. */
static void expect_bad(const char *name, const unsigned char *img, size_t len,
		       const char *what)
{
	char path[256], args[512], err[1024];
	int st;

	snprintf(path, sizeof(path), "%s/%s.bin", dir, name);
	put(path, img, len);
	snprintf(args, sizeof(args), "--check %s", path);
	st = run(args, err, sizeof(err));
	tap_check(st == 1, "%s: --check fails with status 1 (got %d)", name, st);
	tap_check(strstr(err, what) != NULL, "%s: the message names '%s'", name,
		  what);
	tap_check(strstr(err, path) != NULL && strchr(err, '\n') ==
		  err + strlen(err) - 1, "%s: one line naming the file", name);
	if (!strstr(err, what) || st != 1)
		tap_diag("stderr: %s", err);
}

int main(void)
{
	unsigned char raw[4096], img[4096], bad[4096];
	struct vpux_fw_header h;
	char raw_path[256], img_path[256], args[768], err[1024];
	unsigned char *p;
	size_t len, n;
	int st;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	snprintf(raw_path, sizeof(raw_path), "%s/raw.bin", dir);
	snprintf(img_path, sizeof(img_path), "%s/img.bin", dir);
	len = make_raw(raw, 1000);
	put(raw_path, raw, len);

	/* pack */
	snprintf(args, sizeof(args), "-q -o %s %s", img_path, raw_path);
	st = run(args, err, sizeof(err));
	tap_check(st == 0 && !err[0], "pack a good image (status %d)", st);
	p = get(img_path, &n);
	tap_check(p && n == len, "the packed image keeps its size");
	if (!p || n != len)
		return tap_finish();
	memcpy(img, p, n);
	memcpy(&h, img, sizeof(h));
	tap_check(h.image_size == len, "image_size %u is the file's size",
		  h.image_size);
	tap_check(h.crc32 == (uint32_t)crc32(0, img + sizeof(h), len - sizeof(h)),
		  "crc32 0x%08x is zlib's crc32() of the bytes after the header",
		  h.crc32);
	tap_check(!memcmp(img + sizeof(h), raw + sizeof(h), len - sizeof(h)),
		  "packing changes only the header");

	/* check the good one */
	snprintf(args, sizeof(args), "--check %s", img_path);
	st = run(args, err, sizeof(err));
	tap_check(st == 0 && !err[0], "--check passes the packed image");
	snprintf(args, sizeof(args), "--check %s", raw_path);
	st = run(args, err, sizeof(err));
	tap_check(st == 1 && strstr(err, "not packed"),
		  "--check refuses the unpacked image (image_size 0)");

	/* broken copies */
	memcpy(bad, img, len);
	bad[0] ^= 0xff;
	expect_bad("magic", bad, len, "bad magic");

	memcpy(bad, img, len);
	((struct vpux_fw_header *)bad)->abi_major = VPUX_FW_ABI_MAJOR + 1;
	expect_bad("abi", bad, len, "ABI major");

	expect_bad("truncated", img, len - 100, "truncated");
	expect_bad("header-only", img, 40, "truncated");

	memcpy(bad, img, len);
	memset(bad + len, 0, 16);
	expect_bad("trailing", bad, len + 16, "trailing");

	memcpy(bad, img, len);
	bad[len / 2] ^= 0x01;
	expect_bad("flipped", bad, len, "crc32 mismatch");

	memcpy(bad, img, len);
	((struct vpux_fw_header *)bad)->entry = VPUX_MC_RAM_BASE;
	expect_bad("entry", bad, len, "entry");

	memcpy(bad, img, len);
	((struct vpux_fw_header *)bad)->ram_size = 8u << 20;
	expect_bad("ram", bad, len, "ram_size");

	memcpy(bad, img, len);
	((struct vpux_fw_header *)bad)->load_addr = 0;
	expect_bad("load", bad, len, "load_addr");

	memcpy(bad, img, len);
	memset(((struct vpux_fw_header *)bad)->version, 'x', 32);
	expect_bad("version", bad, len, "version");

	/* pack refuses what it cannot fix */
	memcpy(bad, raw, len);
	((struct vpux_fw_header *)bad)->magic = 0;
	put(raw_path, bad, len);
	snprintf(args, sizeof(args), "-o %s/x.bin %s", dir, raw_path);
	st = run(args, err, sizeof(err));
	tap_check(st == 1 && strstr(err, "bad magic"),
		  "packing a raw image with a bad magic fails");

	/* usage */
	st = run("--help", err, sizeof(err));
	tap_check(st == 0, "--help");
	st = run("--version", err, sizeof(err));
	tap_check(st == 0, "--version");
	st = run("", err, sizeof(err));
	tap_check(st == 2 && strstr(err, "no IMAGE"), "no image: usage error");
	snprintf(args, sizeof(args), "--check %s/missing.bin", dir);
	st = run(args, err, sizeof(err));
	tap_check(st == 2 && strstr(err, "missing.bin"),
		  "a missing file: I/O error naming it");

#ifdef FW_BIN
	if (access(FW_BIN, R_OK) == 0) {
		snprintf(args, sizeof(args), "--check %s", FW_BIN);
		st = run(args, err, sizeof(err));
		tap_check(st == 0, "the built image %s passes --check", FW_BIN);
		if (st)
			tap_diag("stderr: %s", err);
	} else {
		tap_skip(FW_BIN " not built (make firmware-image)");
	}
#endif
	snprintf(args, sizeof(args), "rm -rf %s", dir);
	if (system(args))
		tap_diag("could not remove %s", dir);
	return tap_finish();
}
