// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * fwpack - finish and check the firmware image (Documentation/firmware.rst)
 *
 *   fwpack [-o OUT] [--ram-limit BYTES] IMAGE   pack: fill image_size and
 *                                               crc32 of the flat binary
 *   fwpack --check [--ram-limit BYTES] IMAGE    check a packed image the
 *                                               way the driver does
 *
 * The linker fills the rest of struct vpux_fw_header (link.ld,
 * fw_header.c); packing checks it too, so a broken image never leaves the
 * build. Exit status: 0 good, 1 the image is bad (one line on stderr
 * names what), 2 usage or I/O error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpux_fw_abi.h"
#include "vpux_mc.h"

#define FWPACK_VERSION		"1.0"
#define FWPACK_MAX_FILE		(64u << 20)
#define FWPACK_RAM_DEFAULT	(4u << 20)	/* the model's MC_MEM_SIZE */

static const char *prog = "fwpack";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [-o OUT] [--ram-limit BYTES] IMAGE\n"
		"       %s --check [--ram-limit BYTES] IMAGE\n"
		"\n"
		"Pack the firmware image IMAGE (a flat binary starting with\n"
		"struct vpux_fw_header): set its image_size and crc32 and check\n"
		"it, writing OUT (default: IMAGE in place). With --check, check\n"
		"a packed image the way the driver does: magic, ABI major,\n"
		"header and image sizes, load address, entry, ram_size, limits,\n"
		"version string and crc32.\n"
		"\n"
		"  -c, --check            check IMAGE, change nothing\n"
		"  -o, --output OUT       write the packed image to OUT\n"
		"  -r, --ram-limit BYTES  RAM of the management core (default %u)\n"
		"  -q, --quiet            no summary line\n"
		"  -h, --help             this text\n"
		"  -V, --version          fwpack's version\n"
		"\n"
		"Exit status: 0 good, 1 the image is bad, 2 usage or I/O error.\n",
		prog, prog, FWPACK_RAM_DEFAULT);
}

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32()). */
static uint32_t crc32_ieee(const unsigned char *p, size_t n)
{
	static uint32_t table[256];
	uint32_t crc = 0xffffffffu;
	size_t i;

	if (!table[1]) {
		for (i = 0; i < 256; i++) {
			uint32_t c = (uint32_t)i;
			int k;

			for (k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	}
	for (i = 0; i < n; i++)
		crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
	return crc ^ 0xffffffffu;
}

static const char *image_name;

__attribute__((format(printf, 1, 2)))
static int bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: ", prog, image_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

static int read_file(const char *path, unsigned char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1u << 16, n = 0, r;
	unsigned char *b;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return 2;
	}
	b = malloc(cap);
	while (b && (r = fread(b + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			unsigned char *nb;

			if (cap >= FWPACK_MAX_FILE) {
				fprintf(stderr, "%s: %s: larger than %u bytes\n",
					prog, path, FWPACK_MAX_FILE);
				free(b);
				fclose(f);
				return 2;
			}
			nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
			cap *= 2;
		}
	}
	if (!b || ferror(f)) {
		fprintf(stderr, "%s: %s: %s\n", prog, path,
			b ? "read error" : "out of memory");
		free(b);
		fclose(f);
		return 2;
	}
	fclose(f);
	*buf = b;
	*len = n;
	return 0;
}

static int write_file(const char *path, const unsigned char *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "%s: %s: %s\n", prog, path,
			errno ? strerror(errno) : "write error");
		if (f)
			fclose(f);
		return 2;
	}
	return 0;
}

/*
 * Check @h against a file of @len bytes; @pack: image_size and crc32 are
 * not filled yet. 0 or 1 (and the message).
 */
static int check_header(const struct vpux_fw_header *h, const unsigned char *buf,
			size_t len, uint32_t ram_limit, int pack)
{
	uint32_t crc, i;

	if (len < sizeof(*h))
		return bad("truncated: %zu bytes, less than the %zu-byte header",
			   len, sizeof(*h));
	if (h->magic != VPUX_FW_MAGIC)
		return bad("bad magic 0x%08x (expected 0x%08x): not a vpux firmware image",
			   h->magic, VPUX_FW_MAGIC);
	if (h->abi_major != VPUX_FW_ABI_MAJOR)
		return bad("ABI major %u, expected %u (ABI %u.%u)", h->abi_major,
			   VPUX_FW_ABI_MAJOR, VPUX_FW_ABI_MAJOR, VPUX_FW_ABI_MINOR);
	if (h->header_size < sizeof(*h) || h->header_size % 4 ||
	    h->header_size > len)
		return bad("bad header_size %u (at least %zu, 4-aligned, inside the %zu-byte file)",
			   h->header_size, sizeof(*h), len);
	if (!pack && !h->image_size)
		return bad("image_size 0: not packed (fwpack IMAGE fills it and the crc32)");
	if (!pack && h->image_size > len)
		return bad("truncated: %zu bytes, the header's image_size is %u",
			   len, h->image_size);
	if (!pack && h->image_size < len)
		return bad("image_size %u, but the file has %zu bytes (trailing data)",
			   h->image_size, len);
	if (h->load_addr != VPUX_MC_RAM_BASE)
		return bad("load_addr 0x%08x, expected 0x%08x (VPUX_MC_RAM_BASE)",
			   h->load_addr, VPUX_MC_RAM_BASE);
	if (h->entry < h->load_addr + h->header_size ||
	    h->entry - h->load_addr >= len || h->entry % 2)
		return bad("entry 0x%08x outside the image's code [0x%08x, 0x%08zx)",
			   h->entry, h->load_addr + h->header_size,
			   h->load_addr + len);
	if (h->ram_size < len || h->ram_size > ram_limit)
		return bad("ram_size %u: below the %zu-byte image or above the %u bytes of RAM",
			   h->ram_size, len, ram_limit);
	if (!memchr(h->version, '\0', sizeof(h->version)))
		return bad("version string not NUL-terminated");
	if (!h->max_tasks || h->max_tasks > 32 || !h->max_ops ||
	    !h->max_barriers || !h->max_deps || !h->max_addr_entries)
		return bad("bad engine-core limits: tasks %u, ops %u, barriers %u, deps %u, addr entries %u",
			   h->max_tasks, h->max_ops, h->max_barriers, h->max_deps,
			   h->max_addr_entries);
	for (i = 0; i < sizeof(h->reserved) / sizeof(h->reserved[0]); i++)
		if (h->reserved[i])
			return bad("reserved[%u] is 0x%x, not 0", i,
				   h->reserved[i]);
	if (pack)
		return 0;
	crc = crc32_ieee(buf + sizeof(*h), len - sizeof(*h));
	if (crc != h->crc32)
		return bad("crc32 mismatch: header says 0x%08x, the %zu bytes after the header give 0x%08x",
			   h->crc32, len - sizeof(*h), crc);
	return 0;
}

static int parse_u32(const char *s, uint32_t *v)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || end == s || *end || x > 0xffffffffull)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "check", no_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "ram-limit", required_argument, NULL, 'r' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	uint32_t ram_limit = FWPACK_RAM_DEFAULT;
	const char *out = NULL;
	int check = 0, quiet = 0, c, ret;
	struct vpux_fw_header h;
	unsigned char *buf;
	size_t len;

	while ((c = getopt_long(argc, argv, "co:r:qhV", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			check = 1;
			break;
		case 'o':
			out = optarg;
			break;
		case 'r':
			if (parse_u32(optarg, &ram_limit) || !ram_limit) {
				fprintf(stderr, "%s: --ram-limit: '%s' is not a byte count\n",
					prog, optarg);
				return 2;
			}
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("fwpack %s (firmware ABI %u.%u)\n", FWPACK_VERSION,
			       VPUX_FW_ABI_MAJOR, VPUX_FW_ABI_MINOR);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "%s: %s\n", prog, optind < argc ?
			"one IMAGE only" : "no IMAGE given");
		usage(stderr);
		return 2;
	}
	if (check && out) {
		fprintf(stderr, "%s: --check writes nothing: no --output\n", prog);
		return 2;
	}
	image_name = argv[optind];
	ret = read_file(image_name, &buf, &len);
	if (ret)
		return ret;
	memset(&h, 0, sizeof(h));
	memcpy(&h, buf, len < sizeof(h) ? len : sizeof(h));
	if (!check) {
		if (len > ram_limit) {
			free(buf);
			return bad("%zu bytes: larger than the %u bytes of RAM",
				   len, ram_limit);
		}
		h.image_size = (uint32_t)len;
		if (len >= sizeof(h))
			h.crc32 = crc32_ieee(buf + sizeof(h), len - sizeof(h));
	}
	ret = check_header(&h, buf, len, ram_limit, !check);
	if (!ret && !check) {
		memcpy(buf, &h, sizeof(h));
		ret = write_file(out ? out : image_name, buf, len);
		image_name = out ? out : image_name;
	}
	if (!ret && !quiet)
		printf("%s: %s: %s, %u bytes, ram_size %u of %u, crc32 0x%08x, "
		       "ABI %u.%u, limits %u tasks %u ops %u barriers %u deps %u addr\n",
		       prog, image_name, h.version, h.image_size, h.ram_size,
		       ram_limit, h.crc32, h.abi_major, h.abi_minor,
		       h.max_tasks, h.max_ops, h.max_barriers, h.max_deps,
		       h.max_addr_entries);
	free(buf);
	return ret;
}
