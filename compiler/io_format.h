/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The ".vpux.io"/".vpux.ioq" record formats live with their reader in
 * libvpux (umd/io_format.h, read at vpux_network_load() by
 * umd/host_io.c); the compiler writes them.
 */
#include "../umd/io_format.h"
