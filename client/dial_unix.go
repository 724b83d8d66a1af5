//go:build !windows

package client

import (
	"context"
	"io"
	"os"
	"syscall"
)

// dial connects to a host's unix socket; the host checks our uid
// (SO_PEERCRED, LOCAL_PEERCRED) and the socket's 0700 folder keeps
// other users out.
//
// It dials with syscalls and hands the socket to os.NewFile (which puts a
// non-blocking descriptor on the runtime's poller, as net does), not with
// package net: net has a cgo resolver, so a plain `go build` on a machine
// with a C compiler would link the C runtime into grip and every agent
// command would start dynamically linked, 1.8× the instructions of
// `grip --version` (docs/cli-cost.md, "The CLI's fixed cost").
// A unix connect is answered at once (refused, or queued for the host's
// accept), so ctx has nothing to wait on here; the hello that follows
// waits under it.
func dial(ctx context.Context, socket string) (io.ReadWriteCloser, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	syscall.ForkLock.RLock() // no child may inherit it before it is close-on-exec
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, &os.PathError{Op: "dial", Path: socket, Err: os.NewSyscallError("socket", err)}
	}
	for {
		err = syscall.Connect(fd, &syscall.SockaddrUnix{Name: socket})
		if err != syscall.EINTR {
			break
		}
	}
	if err == nil {
		err = syscall.SetNonblock(fd, true)
	}
	if err != nil {
		syscall.Close(fd)
		return nil, &os.PathError{Op: "dial", Path: socket, Err: err}
	}
	return os.NewFile(uintptr(fd), socket), nil
}
