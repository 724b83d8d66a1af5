// Package hostcli is the heavy side of grip's command line: the host mode
// Chrome starts, install/uninstall/doctor, mcp, demo and launch, with the
// libraries they need. cmd/grip-host links it into a cli.App (App.Heavy);
// cmd/grip, which agents start hundreds of times, does not, and hands
// these commands to grip-host (docs/cli-cost.md, "The CLI's fixed
// cost").
package hostcli

import "github.com/grip-dev/grip/cli"

// Heavy is what cmd/grip-host sets as App.Heavy.
var Heavy = &cli.Heavy{Host: runHost, Lookup: lookup}

func lookup(name string) (cli.Command, bool) {
	switch name {
	case "install":
		return cmdInstall, true
	case "uninstall":
		return cmdUninstall, true
	case "doctor":
		return cmdDoctor, true
	case "mcp":
		return cmdMCP, true
	case "demo":
		return cmdDemo, true
	case "launch":
		return cmdLaunch, true
	}
	return nil, false
}
