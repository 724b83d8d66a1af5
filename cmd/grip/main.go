// Command grip lets an AI agent drive your own Chrome. See README.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/grip-dev/grip/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	app := &cli.App{Args: os.Args[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	code := app.Run(ctx)
	stop()
	os.Exit(code)
}
