package mcp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/grip-dev/grip/protocol"
)

// The tools for files going into a page and coming out of it
// (docs/ARCHITECTURE.md, "Files in and out"); browser_wait_for also waits
// for a download.

type uploadIn struct {
	target
	Paths []string `json:"paths" jsonschema:"Paths on this machine (absolute, or relative to the folder grip mcp runs in); several only if the input allows several"`
	actOpts
}

type downloadsIn struct {
	Limit int `json:"limit,omitempty" jsonschema:"List at most this many downloads, newest first (default 20)"`
	Tab   int `json:"tab,omitempty" jsonschema:"Only the downloads of this tab id (and those grip cannot tie to a tab)"`
}

// addFileTools registers browser_file_upload and browser_downloads.
func addFileTools(s *Server) {
	addTool(s, &Tool{Name: "browser_file_upload", Title: "Upload files",
		Description: "Put files into a file input as a person picking them would (the page's input and change handlers see them). " +
			"ref may name the input, or the button or label a site shows in front of a hidden one. " +
			"Missing or unreadable files are refused before anything is touched; at most 50 MiB together." + actReply},
		func(p map[string]*Schema) {
			actTweaks(p)
			p["paths"].MinItems = ptr(1)
		}, s.fileUpload)
	addTool(s, &Tool{Name: "browser_downloads", Title: "Downloads", Annotations: &ToolAnnotations{ReadOnlyHint: true},
		Description: "List the browser's downloads, newest first: id, state, size, the tab that started it, the file's full path on this machine and its URL. " +
			"To wait for one a click starts, use browser_wait_for with download: true."},
		func(p map[string]*Schema) {
			p["limit"].Minimum = ptr(1.0)
			p["tab"].Minimum = ptr(1.0)
		}, s.downloads)
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

func (s *Server) downloads(ctx context.Context, in downloadsIn) (*CallToolResult, error) {
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
	state := d.State
	if d.Error != "" {
		state += " (" + d.Error + ")"
	}
	tab := ""
	if d.Tab != 0 {
		tab = fmt.Sprintf(", tab %d", d.Tab)
	}
	path := d.Path
	if path == "" {
		path = "(no file yet)"
	}
	return fmt.Sprintf("%d: %s, %d bytes%s · %s · %s", d.ID, state, d.Bytes, tab, path, d.URL)
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
