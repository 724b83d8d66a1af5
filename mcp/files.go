package mcp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/protocol"
)

// The tools for files going into a page and coming out of it
// (docs/files.md, "Files in and out"); browser_wait_for also waits
// for a download.

type uploadIn struct {
	target
	Paths []string `json:"paths" jsonschema:"Paths on this machine (absolute, or from grip mcp's folder)"`
	actOpts
}

// addFileTools registers browser_file_upload; browser_status lists the
// downloads (show: downloads).
func addFileTools(s *Server) {
	addTool(s, &Tool{Name: "browser_file_upload", ops: []string{protocol.OpAct},
		Description: "Put files into a file input (or the button or label in front of a hidden one) as a person picking them would; missing files are refused before anything is touched; at most 50 MiB." + actReply},
		func(p map[string]*Schema) {
			p["paths"].MinItems = ptr(1)
		}, s.fileUpload)
}

func (s *Server) fileUpload(ctx context.Context, in uploadIn) (*CallToolResult, error) {
	if len(in.Paths) == 0 {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "pass paths: [\"/path/to/file\"]", "no files to upload")
	}
	args := actArgs(protocol.ActUpload, in.target, in.actOpts, false)
	for _, p := range in.Paths {
		abs, err := filepath.Abs(strings.TrimSpace(p))
		if err != nil {
			return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give an absolute path", "%s: %v", p, err)
		}
		args.Files = append(args.Files, abs)
	}
	names := make([]string, len(args.Files))
	for i, f := range args.Files {
		names[i] = filepath.Base(f)
	}
	return s.act(ctx, args, fmt.Sprintf("Uploaded %s into %s", strings.Join(names, ", "), named(args.Target, in.Element)))
}

func (s *Server) downloads(ctx context.Context, in statusIn) (*CallToolResult, error) {
	res, err := s.ops.Downloads(ctx, protocol.DownloadsArgs{Limit: in.Limit, Tab: in.Tab})
	if err != nil {
		return nil, err
	}
	if len(res.Downloads) == 0 {
		return textResult("No downloads.\n"), nil
	}
	var b strings.Builder
	for _, d := range res.Downloads {
		b.WriteString("- " + downloadText(d) + "\n")
	}
	return textResult(b.String()), nil
}

// downloadText describes one download on one line.
func downloadText(d protocol.Download) string {
	p := frames.Download(d)
	tab := ""
	if p.Tab != 0 {
		tab = fmt.Sprintf(", tab %d", p.Tab)
	}
	return fmt.Sprintf("%d: %s, %s%s · %s · %s", d.ID, p.State, p.Size, tab, p.Path, d.URL)
}

// waitDownload waits for the next download to finish; the reply's
// download line says where it is.
func (s *Server) waitDownload(ctx context.Context, tab int, timeout time.Duration) (*protocol.ActionResult, string, error) {
	res, err := s.ops.WaitDownload(ctx, tab, timeout)
	if err != nil {
		return nil, "", err
	}
	return res, "the download finished", nil
}
