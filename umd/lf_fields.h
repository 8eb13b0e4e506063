/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The op fields a plan may patch (.vpux.plan.patches, VPUX_LF_FIELD()):
 * one table shared by the loader (which ids exist, their widths), the
 * task builder (where each lands in the device's op record) and
 * vpux-asm/vpux-dis (their names). Ids are part of the loadable format:
 * never renumber, only append.
 */
#ifndef VPUX_LF_FIELDS_H
#define VPUX_LF_FIELDS_H

#include <stdint.h>

struct lf_field {
	uint32_t id;		/* VPUX_LF_FIELD(kind, n) */
	const char *name;	/* vpux-asm spelling, unique within the kind */
	uint16_t lf_offset;	/* in struct vpux_lf_{dma,dpu,shave} */
	uint16_t dla_offset;	/* in struct dla_{dma,dpu,shave}_op */
	uint8_t width;		/* bytes: 2 or 4 (the same in both records) */
	uint8_t is_ref_offset;	/* a buffer reference's offset: tensor-relative */
};

/* The table, terminated by an entry with a NULL name. */
extern const struct lf_field lf_fields[];

/* The field of @id, or NULL. */
const struct lf_field *lf_field_by_id(uint32_t id);
/* The field of op kind @kind named @name, or NULL. */
const struct lf_field *lf_field_by_name(uint32_t kind, const char *name);

#endif /* VPUX_LF_FIELDS_H */
