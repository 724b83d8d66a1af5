package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/internal/version"
	"github.com/grip-dev/grip/mcp"
)

// cmdMCP is `grip mcp [--profile ID] [--wait D]`: an MCP server on stdio.
// Stdout carries MCP messages only; it connects to the host on the first
// tool call, waiting for a browser as the other commands do. The process
// is one session: --session or GRIP_SESSION, else the MCP client's name
// and this process's id, so two runs of one client never share tabs.
func cmdMCP(ctx context.Context, a *App, args []string) (bool, error) {
	f := newFlags(a, "mcp")
	pos, err := f.parse(args)
	if err != nil {
		return false, err
	}
	if len(pos) > 0 {
		return false, usagef("mcp takes no arguments, got %q", pos[0])
	}
	opt := client.Options{Profile: *f.profile, Wait: *f.wait, Session: a.sessionName(f)}
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
	err = mcp.New(connect, mcp.Options{Version: version.String()}).Serve(ctx, a.Stdin, a.Stdout)
	if ctx.Err() != nil {
		return false, nil // interrupted: a normal way for an MCP server to end
	}
	return false, err
}
