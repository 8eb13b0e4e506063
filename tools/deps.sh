#!/bin/sh
# Install every Debian package the project needs. Idempotent and quiet
# when everything is present. Run as root (or through sudo).
set -eu

# One package per word; keep sorted within each group.
PKGS="build-essential pkg-config bc flex bison cpio kmod xz-utils zstd"
PKGS="$PKGS linux-headers-6.12-amd64 linux-source-6.12"
PKGS="$PKGS qemu-system-x86 qemu-user busybox-static"
PKGS="$PKGS libdrm-dev libelf-dev libkmod-dev libnl-genl-3-dev libjson-c-dev"
PKGS="$PKGS zlib1g-dev"
PKGS="$PKGS sparse clang valgrind gcc-multilib gcc-riscv64-unknown-elf"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "deps: installing:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >/dev/null
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing >/dev/null
