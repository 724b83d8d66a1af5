package hostcli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/grip-dev/grip/cli"
	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/internal/version"
	"github.com/grip-dev/grip/mcp"
)

// cmdMCP is `grip mcp [--profile ID] [--wait D] [--output-dir DIR]`: an
// MCP server on stdio; its file tools work by name in DIR (mcp/outdir.go).
// Stdout carries MCP messages only; it connects to the host on the first
// tool call, waiting for a browser as the other commands do. The process
// is one session: --session or GRIP_SESSION, else the MCP client's name
// and this process's id, so two runs of one client never share tabs.
func cmdMCP(ctx context.Context, a *cli.App, args []string) (bool, error) {
	f := cli.NewFlags(a, "mcp")
	f.Lookup("session").Usage = "the session this MCP server works in: it owns the tabs it opens " +
		"(default $GRIP_SESSION, else the MCP client's name and this process's id, as claude-code-4812: " +
		"a new one each run; name one to keep working in a session's tabs after a restart)"
	outputDir := f.String("output-dir", "", "the folder the tools write and read files in, by name (default: the profile's under grip's state folder)")
	pos, err := f.ParseArgs(args)
	if err != nil {
		return false, err
	}
	if len(pos) > 0 {
		return false, cli.Usagef("mcp takes no arguments, got %q", pos[0])
	}
	if *outputDir != "" {
		if *outputDir, err = filepath.Abs(*outputDir); err != nil {
			return false, cli.Usagef("--output-dir: %v", err)
		}
	}
	opt := client.Options{Profile: f.Profile(), Wait: f.Wait(), Session: a.SessionName(f)}
	connect := func(ctx context.Context) (mcp.Caller, error) {
		opt := opt
		opt.Client = mcp.ClientName(ctx)
		if opt.Session == "" {
			opt.Session = fmt.Sprintf("%s-%d", opt.Client, os.Getpid())
		}
		s, err := client.NewSession(ctx, opt)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	err = mcp.New(connect, mcp.Options{Version: version.String(), OutputDir: *outputDir}).Serve(ctx, a.Stdin, a.Stdout)
	if ctx.Err() != nil {
		return false, nil // interrupted: a normal way for an MCP server to end
	}
	return false, err
}
