/* SPDX-License-Identifier: MIT */
/*
 * vpux-info's views of the driver's "vpux" generic netlink family
 * (Documentation/netlink.rst): --stats, --contexts, --watch, --events.
 */
#ifndef VPUX_INFO_NL_H
#define VPUX_INFO_NL_H

#include <stdbool.h>
#include <stdio.h>

/* the kernel's vpux_accel has no "vpux" netlink family */
/* exit codes of vpux-info(1) beyond vpux_cli.h's: the module is not
 * loaded (every view), the loaded module has no netlink family */
#define EXIT_NO_MODULE 4
#define EXIT_NO_FAMILY 5

/* true if @argv asks for one of the netlink views */
bool vpux_info_nl_wanted(int argc, char **argv);
/* run the netlink view @argv asks for; returns the exit status */
int vpux_info_nl_main(int argc, char **argv);
/* the netlink views' lines of --help */
void vpux_info_nl_usage(FILE *f);

#endif /* VPUX_INFO_NL_H */
