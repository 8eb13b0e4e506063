/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* vpux-run --recipe: run a run recipe (recipe.c, vpux-run(1)). */
#ifndef VPUX_RUN_RECIPE_H
#define VPUX_RUN_RECIPE_H

/*
 * Run @recipe on @dev_name @repeat times: @ins/@outs are NAME=FILE
 * bindings; @check compares every NPU run with the CPU reference.
 * Return: a VPUX_EXIT_* status (3 when an NPU run differs).
 */
int run_recipe(const char *dev_name, const char *recipe,
	       const char *const *ins, unsigned int n_ins,
	       const char *const *outs, unsigned int n_outs, int check,
	       int repeat, int json);

/* run.c's clock (CLOCK_MONOTONIC, in us) and qsort() order of doubles */
double run_now_us(void);
int run_cmp_d(const void *a, const void *b);

#endif /* VPUX_RUN_RECIPE_H */
