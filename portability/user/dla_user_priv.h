/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Internals shared by the host port's files. */
#ifndef DLA_USER_PRIV_H
#define DLA_USER_PRIV_H

#include "dla_user.h"

/*
 * Run @fn(@arg) first thing in dla_user_destroy(), before the core is
 * unregistered: the backend stops delivering interrupts to the device.
 */
void dla_user_set_detach(struct dla_user_dev *d, void (*fn)(void *arg),
			 void *arg);

/*
 * For the engine core's white-box tests (firmware/tests/), which call the
 * core directly on a device whose bottom half runs inline (no other
 * thread enters the core): the core instance, and a task handle the
 * port's callbacks understand, naming a copy of @list (free it with
 * free()).
 */
struct dla_engine *dla_user_engine(struct dla_user_dev *d);
void *dla_user_task_handle(const struct dla_user_buf *list, unsigned int n);

#endif /* DLA_USER_PRIV_H */
