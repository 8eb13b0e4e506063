// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libFuzzer harness of the run-recipe parser (umd/runner/recipe.c):
 * whatever the bytes, recipe_parse() either refuses them with a message that
 * starts with a JSON path (or "recipe:"/"header.") or returns records
 * whose references all resolve and whose sub-buffers of sized buffers lie
 * inside them. Seeds: umd/tests/fuzz/recipe-corpus and examples/recipes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recipe.h"
#include "vpux.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct recipe *r = NULL;
	unsigned int i, j;
	int ret;

	ret = recipe_parse((const char *)data, size, &r);
	if (ret) {
		const char *m = vpux_last_error();

		if (!*m || (ret != VPUX_E_FORMAT && ret != VPUX_E_VERSION &&
			    ret != VPUX_E_NOMEM))
			abort();
		return 0;
	}
	for (i = 0; i < r->num_runs; i++) {
		const struct recipe_run *run = &r->runs[i];

		if (run->res >= (run->cpu ? r->num_cpus : r->num_kernels))
			abort();
		for (j = 0; j < run->num_args; j++) {
			const struct recipe_arg *a = &run->args[j];
			const struct recipe_buffer *b = &r->buffers[a->buf];

			if (a->buf >= r->num_buffers || a->argidx >= RECIPE_MAX_ARGS)
				abort();
			if (b->size && (a->offset >= b->size ||
					a->size > b->size - a->offset))
				abort();
		}
		if (!run->cpu && run->num_consts)
			abort();
	}
	recipe_free(r);
	return 0;
}
