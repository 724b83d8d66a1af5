package mcp

import (
	"context"
	"fmt"

	"github.com/grip-dev/grip/outdir"
	"github.com/grip-dev/grip/protocol"
)

// The output folder (docs/files.md, "Files in and out"): every
// file an MCP tool writes or reads is a bare name in one folder grip owns,
// per browser profile, never a path. An agent with only the MCP tools may
// have been talked into its calls by a page; it must not reach the
// person's ~/.bash_profile, ~/.ssh or any file outside that folder.

// outputDir opens the output folder: Options.OutputDir, else the folder
// of the connected host's profile under grip's state root (which means
// connecting first).
func (s *Server) outputDir(ctx context.Context) (*outdir.Dir, error) {
	path := s.fixedOutputDir
	if path == "" {
		c, err := s.caller(ctx)
		if err != nil {
			return nil, err
		}
		profile := ""
		if h, ok := c.(interface{ Info() protocol.HostInfo }); ok {
			profile = h.Info().Profile
		}
		if path, err = outdir.ForProfile(profile); err != nil {
			return nil, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryHost, "set GRIP_STATE_DIR", "no output folder: %v", err)
		}
	}
	d, err := outdir.Open(path)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy,
			"the person can remove or fix that folder; grip makes it again (0700) on the next call", "grip's output folder cannot be used: %v", err)
	}
	return d, nil
}

// checkNewFile refuses name before anything is captured unless it is a
// free file name in the output folder.
func (s *Server) checkNewFile(ctx context.Context, name string) error {
	d, err := s.outputDir(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.CheckNew(name)
}

// writeNewFile writes data as the new file name in the output folder and
// returns its full path.
func (s *Server) writeNewFile(ctx context.Context, name string, data []byte) (string, error) {
	d, err := s.outputDir(ctx)
	if err != nil {
		return "", err
	}
	defer d.Close()
	return d.WriteNew(name, data)
}

// writeStamped writes data under the first free name that stamp(i) gives
// (i = 0, 1, …): a default name such as page-TAB-TIME.pdf.
func (s *Server) writeStamped(ctx context.Context, stamp func(i int) string, data []byte) (string, error) {
	d, err := s.outputDir(ctx)
	if err != nil {
		return "", err
	}
	defer d.Close()
	for i := 0; ; i++ {
		name := stamp(i)
		if err := d.CheckNew(name); err != nil && i < 100 {
			continue
		}
		return d.WriteNew(name, data)
	}
}

// outputDirLine is browser_status' line naming the folder.
func (s *Server) outputDirLine(ctx context.Context) string {
	d, err := s.outputDir(ctx)
	if err != nil {
		return fmt.Sprintf("output_dir: (none: %v)\n", err)
	}
	defer d.Close()
	return fmt.Sprintf("output_dir: %s (files MCP tools write and read, by name)\n", d.Path())
}
