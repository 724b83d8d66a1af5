// Command grip lets an AI agent drive your own Chrome. See README.md.
package main

import (
	"context"
	"os"

	"github.com/grip-dev/grip/cli"
)

func main() {
	// Ctrl-C is left to its default except in the commands that own
	// something it would tear (cli.interruptible): a handler costs every
	// start a goroutine and a thread.
	app := &cli.App{Args: os.Args[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	os.Exit(app.Run(context.Background()))
}
