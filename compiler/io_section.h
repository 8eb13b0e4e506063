/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Writing the ".vpux.io" and ".vpux.ioq" sections (umd/io_format.h):
 * what the emitter adds to a loadable, and what the tests build loadables
 * with.
 */
#ifndef VPUXC_IO_SECTION_H
#define VPUXC_IO_SECTION_H

#include <stdint.h>

#include "io_format.h"

/*
 * The whole section for @n records: a struct vpux_lf_sechdr (flags 0,
 * rec_size the record's size, count @n, the CRC-32 of the records), then
 * @recs as they are. @data is malloc'ed; give it to the loadable writer
 * as an extra section with raw set (umd/lf.h):
 *
 *	struct lf_extra_section ex = { VPUXC_IO_SECTION, 0, data, size, 0, 1 };
 *
 * (or give the writer the records and their rec_size, as compile.c does:
 * the same bytes).
 *
 * Return: 0, VPUX_E_INVAL (more than 128 records; for .vpux.ioq more
 * than 2^24) or VPUX_E_NOMEM.
 */
int vpuxc_io_section_build(const struct vpuxc_io_rec *recs, unsigned int n,
			   void **data, uint32_t *size);
/* The same for ".vpux.ioq" (VPUXC_IOQ_SECTION). */
int vpuxc_ioq_section_build(const struct vpuxc_ioq_rec *recs, unsigned int n,
			    void **data, uint32_t *size);

#endif /* VPUXC_IO_SECTION_H */
