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

#endif /* DLA_USER_PRIV_H */
