package main

import (
	"testing"

	"github.com/grip-dev/grip/internal/deptest"
)

// What the agent commands link, listed in deps_GOOS.txt. Never the
// libraries the heavy side has (they are grip-host's): an HTTP stack, TLS
// and X.509, regexp (regexp/syntax keeps the unicode tables, whose init
// every start pays), the MCP SDK, the host; and nothing that needs cgo,
// so a plain `go build` on a machine with a C compiler starts as fast as a
// CGO_ENABLED=0 one (docs/cli-cost.md, "The CLI's fixed cost"): on
// Unix not even package net, whose resolver is cgo's (client/dial_unix.go
// dials by syscall). On Windows net serves the named pipe, with no cgo.
func TestDependencies(t *testing.T) {
	deptest.Check(t, func(goos string) []string {
		never := []string{
			"runtime/cgo", "os/user",
			"net/http", "crypto/tls", "crypto/x509", "vendor/golang.org/x/net/http2/hpack",
			"regexp", "regexp/syntax",
			"github.com/modelcontextprotocol/go-sdk/mcp",
			"github.com/grip-dev/grip/host", "github.com/grip-dev/grip/mcp", "github.com/grip-dev/grip/install",
			"github.com/grip-dev/grip/demo", "github.com/grip-dev/grip/cli/hostcli",
			"github.com/grip-dev/grip/launcher", "github.com/grip-dev/grip/extension", // its embedded files: grip-host writes them
		}
		if goos != "windows" {
			never = append(never, "net")
		}
		return never
	})
}
