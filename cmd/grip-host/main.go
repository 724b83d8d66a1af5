// Command grip-host is grip's heavy side: the native-messaging host Chrome
// starts, the MCP server, install/uninstall/doctor, demo and launch, with
// every agent command as well. People type grip, which hands these
// commands to grip-host, so the agent commands' start links none of
// their libraries (docs/cli-cost.md, "The CLI's fixed cost").
package main

import (
	"context"
	"os"

	"github.com/grip-dev/grip/cli"
	"github.com/grip-dev/grip/cli/hostcli"
)

func main() {
	app := &cli.App{Args: os.Args[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Heavy: hostcli.Heavy}
	os.Exit(app.Run(context.Background()))
}
