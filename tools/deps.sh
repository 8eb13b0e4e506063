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
# libvpux's ABI against the last release's dump (make abi-check)
PKGS="$PKGS abigail-tools"
PKGS="$PKGS sparse clang valgrind gcc-multilib gcc-riscv64-unknown-elf"
# the ONNX compiler: its parser, its test models and their references
PKGS="$PKGS dataset-fashion-mnist libonnx-dev libonnx-testdata"
PKGS="$PKGS libprotobuf-c-dev protobuf-c-compiler"
PKGS="$PKGS python3-jsonschema python3-numpy python3-onnx"
# the float architectures of compiler/models/float (export.py)
PKGS="$PKGS python3-torch python3-torchvision"
# the Python module (python/): its build and its pytest suite
PKGS="$PKGS python3-dev python3-pytest"

# packaging and installing: DKMS, Debian packages, man pages, udev
PKGS="$PKGS debhelper dh-dkms dh-python dkms dpkg-dev fakeroot lintian man-db python3-docutils udev"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		missing="$missing $p"
	fi
done
if [ -n "$missing" ]; then
	echo "deps: installing:$missing"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	$SUDO apt-get install -y -q --no-install-recommends $missing >/dev/null
fi

# onnxruntime-node (the reference of the compiler's models, tools/ort),
# from the npm registry when node is there. --ignore-scripts: the
# package's postinstall step downloads from a host that is not reachable
# here and is not needed, the CPU library ships inside the package.
ORT_DIR="$(cd "$(dirname "$0")" && pwd)/ort"
if command -v npm >/dev/null 2>&1 && [ ! -d "$ORT_DIR/node_modules/onnxruntime-node" ]; then
	echo "deps: npm ci in tools/ort"
	(cd "$ORT_DIR" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
fi
