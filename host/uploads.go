package host

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/grip-dev/grip/protocol"
	"golang.org/x/sync/errgroup"
)

// An upload, step by step (docs/ARCHITECTURE.md, "Files in and out"): the
// CLI sends paths; the host, running as the same user, reads the files
// here before anything reaches the browser, refusing a missing, unreadable
// or too large one by name; then it streams the bytes to the worker in
// upload_chunk requests under the native-messaging limit, and the act that
// follows names them (ActParams.Upload). The worker hands them to the
// page, whose kernel builds File objects and puts them into the input.

// upload is the files of one upload, read whole.
type upload struct {
	spec protocol.Upload
	data [][]byte // the bytes of spec.Files[i]
}

// readUpload reads the files at paths (absolute: the CLI resolved them
// against its own folder, not the host's). It refuses with bad_request,
// naming the file, anything that is not a readable regular file, and with
// too_large files that together pass protocol.MaxUploadBytes; sizes are
// checked for all before any is read.
func readUpload(paths []string) (*upload, error) {
	if len(paths) == 0 {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"usage: grip upload TARGET FILE...", "upload needs at least one file")
	}
	if len(paths) > protocol.MaxUploadFiles {
		return nil, protocol.Errorf(protocol.CodeTooLarge, protocol.BoundaryPayload,
			fmt.Sprintf("upload at most %d files at once", protocol.MaxUploadFiles), "%d files given", len(paths))
	}
	var total int64
	for _, p := range paths {
		st, err := statUpload(p)
		if err != nil {
			return nil, err
		}
		if total += st.Size(); total > protocol.MaxUploadBytes {
			return nil, uploadTooLarge(p)
		}
	}
	up := &upload{spec: protocol.Upload{ID: randomID()}}
	total = 0
	for _, p := range paths {
		b, file, err := readUploadFile(p, protocol.MaxUploadBytes-total)
		if err != nil {
			return nil, err
		}
		total += int64(len(b))
		up.spec.Files = append(up.spec.Files, file)
		up.data = append(up.data, b)
	}
	return up, nil
}

// refuseFile is the refusal of a file that cannot be uploaded.
func refuseFile(format string, args ...any) error {
	return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
		"check the path; nothing was put into the page", format, args...)
}

func uploadTooLarge(path string) error {
	return protocol.Errorf(protocol.CodeTooLarge, protocol.BoundaryPayload, "upload smaller files, or fewer at once",
		"%s: the files of one upload may add up to %d MiB at most", path, protocol.MaxUploadBytes>>20)
}

// statUpload checks that path names a regular file. It stats before
// anything opens the file: opening a named pipe would block until someone
// writes to it.
func statUpload(path string) (fs.FileInfo, error) {
	if !filepath.IsAbs(path) {
		return nil, refuseFile("%s: not an absolute path", path)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, refuseFile("%s: %s", path, fileProblem(err))
	}
	if st.IsDir() {
		return nil, refuseFile("%s is a folder, not a file", path)
	}
	if !st.Mode().IsRegular() {
		return nil, refuseFile("%s is not a regular file", path)
	}
	return st, nil
}

// readUploadFile reads one file of at most room bytes.
func readUploadFile(path string, room int64) ([]byte, protocol.UploadFile, error) {
	var none protocol.UploadFile
	st, err := statUpload(path)
	if err != nil {
		return nil, none, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, none, refuseFile("%s: %s", path, fileProblem(err))
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, room+1))
	if err != nil {
		return nil, none, refuseFile("%s: cannot read it: %v", path, err)
	}
	if int64(len(b)) > room { // it grew since the stat
		return nil, none, uploadTooLarge(path)
	}
	name := filepath.Base(path)
	return b, protocol.UploadFile{Name: name, Type: mimeType(name), Size: int64(len(b)), LastModified: st.ModTime().UnixMilli()}, nil
}

// fileProblem says why a file cannot be read, in words.
func fileProblem(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied (grip reads files as the user running the browser)"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// mimeType is the type a file picker would give the file: from its
// extension, without parameters; "" when unknown, as in Chrome.
func mimeType(name string) string {
	t := mime.TypeByExtension(filepath.Ext(name))
	if t == "" {
		return ""
	}
	if mt, _, err := mime.ParseMediaType(t); err == nil {
		return mt
	}
	return ""
}

// uploadWindow is how many upload_chunk requests are in flight at once:
// they are sent in order, native messaging keeps it and the worker stores
// each as it arrives, so a few at a time hide the round trips.
const uploadWindow = 4

// sendUpload streams the upload's bytes to the worker, in order.
func (h *Host) sendUpload(ctx context.Context, up *upload) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(uploadWindow)
	send := func() error {
		for i, b := range up.data {
			for off := 0; off < len(b); off += protocol.UploadChunkBytes {
				if gctx.Err() != nil {
					return nil // a chunk failed: g.Wait says how
				}
				chunk := b[off:min(off+protocol.UploadChunkBytes, len(b))]
				params := protocol.UploadChunkParams{Upload: up.spec.ID, File: i, Offset: int64(off), Data: base64.StdEncoding.EncodeToString(chunk)}
				wait, err := h.port.start(protocol.ExtUploadChunk, params)
				if err != nil {
					return err
				}
				g.Go(func() error {
					cctx, cancel := context.WithTimeout(gctx, callTimeout)
					defer cancel()
					return wait(cctx, nil)
				})
			}
		}
		return nil
	}
	err := send()
	return cmp.Or(g.Wait(), err, ctx.Err())
}

// callAct sends the act; one carrying an upload has longer than other
// requests, as the worker hands the bytes to the page first.
func (h *Host) callAct(ctx context.Context, params protocol.ActParams, up *upload, res *protocol.ActReply) error {
	if up == nil {
		return h.callExt(ctx, protocol.ExtAct, params, res)
	}
	var total int64
	for _, f := range up.spec.Files {
		total += f.Size
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout+time.Duration(1+total>>20)*time.Second)
	defer cancel()
	return h.port.call(ctx, protocol.ExtAct, params, res)
}

// uploadDetail is what the record of what agents did says of an upload:
// the files' names (a person checking what left their machine needs
// them), not their folders.
func uploadDetail(paths []string) string {
	names := make([]string, 0, len(paths))
	for i, p := range paths {
		if i == 5 {
			names = append(names, fmt.Sprintf("and %d more", len(paths)-i))
			break
		}
		names = append(names, filepath.Base(p))
	}
	return strings.Join(names, ", ")
}
