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
	"slices"
	"strings"
	"time"

	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
	"golang.org/x/sync/errgroup"
)

// An upload, step by step (docs/files.md, "Files in and out"): the
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
// against its own folder, not the host's). Each is resolved and judged by
// the person's policy (judgeUploads), then opened without following a
// link and without blocking, and checked to be the regular file judged
// (openUpload). It refuses with bad_request, naming the file, anything
// that is not a readable regular file, with policy a file the policy
// keeps in, and with too_large files that together pass
// protocol.MaxUploadBytes; sizes are checked for all before any is read.
//
// It returns the resolved paths as far as they resolve, with the refusal
// too: the record names the real files.
func (h *Host) readUpload(ctx context.Context, paths []string) (*upload, []string, error) {
	if len(paths) == 0 {
		return nil, paths, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"usage: grip upload TARGET FILE...", "upload needs at least one file")
	}
	if len(paths) > protocol.MaxUploadFiles {
		return nil, paths, protocol.Errorf(protocol.CodeTooLarge, protocol.BoundaryPayload,
			fmt.Sprintf("upload at most %d files at once", protocol.MaxUploadFiles), "%d files given", len(paths))
	}
	resolved, err := h.judgeUploads(ctx, paths)
	if err != nil {
		return nil, resolved, err
	}
	up, err := readResolved(resolved)
	return up, resolved, err
}

// readResolved opens and reads the judged files.
func readResolved(resolved []string) (*upload, error) {
	files := make([]*os.File, 0, len(resolved))
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	var total int64
	for _, p := range resolved {
		f, st, err := openUpload(p)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		if total += st.Size(); total > protocol.MaxUploadBytes {
			return nil, uploadTooLarge(p)
		}
	}
	up := &upload{spec: protocol.Upload{ID: randomID()}}
	total = 0
	for i, f := range files {
		b, file, err := readUploadFile(f, resolved[i], protocol.MaxUploadBytes-total)
		if err != nil {
			return nil, err
		}
		total += int64(len(b))
		up.spec.Files = append(up.spec.Files, file)
		up.data = append(up.data, b)
	}
	return up, nil
}

// judgeUploads resolves each path (links followed) and judges the real
// file by the policy's upload-from (policy/uploads.go). A file the browser
// downloaded from a page agents may not learn of (a blocked site's, another
// session's; host/downloads.go downloadJudge) is refused first, in the very
// words of a file that does not exist, so that an upload cannot probe the
// names of downloads an agent is not shown. It returns the resolved paths
// — what the person's question and the record show — as far as they
// resolve, even with the refusal.
func (h *Host) judgeUploads(ctx context.Context, paths []string) ([]string, error) {
	p := policy.Default()
	file := "the policy file"
	if h.person != nil {
		p, file = h.person.policy.Current(), h.person.policy.File()
	}
	m := policy.ThisMachine(h.cfg.Dirs.Root)
	if h.cfg.Launch != nil {
		m.Profile = h.cfg.Launch.ProfileDir
	}
	out := slices.Clone(paths)
	for i, path := range paths {
		if !filepath.IsAbs(path) {
			return out, refuseFile("%s: not an absolute path", path)
		}
		r, err := filepath.EvalSymlinks(path)
		if errors.Is(err, fs.ErrNotExist) {
			return out, missingFile(path)
		}
		if err != nil {
			return out, refuseFile("%s: %s", path, fileProblem(err))
		}
		if strings.HasSuffix(r, ".crdownload") {
			// A download still running: whose it is shows only once
			// Chrome names it, so none is sent.
			return out, missingFile(path)
		}
		for _, at := range slices.Compact([]string{r, filepath.Clean(path)}) {
			hidden, ok := h.hiddenDownloadAt(ctx, at)
			if !ok {
				return out, protocol.Errorf(protocol.CodeTimeout, protocol.BoundaryBrowser, "try the upload again",
					"could not check %s against the browser's downloads", path)
			}
			if hidden {
				return out, missingFile(path) // not yours to send reads as no such file
			}
		}
		out[i] = r
		if no := p.JudgeUpload(r, m); no != nil {
			shown := r
			if r != filepath.Clean(path) {
				shown = fmt.Sprintf("%s (the real file behind %s)", r, path)
			}
			return out, protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy,
				"upload only files from the folders upload-from names; do not copy or link the file elsewhere to get past this. If the person means to share it, they set that line in the policy file",
				"%s may not be uploaded: %s. The policy file %s has %q%s; to allow it, the person writes: %s",
				shown, no.Why, file, no.Setting, lineNote(p), no.Line)
		}
	}
	return out, nil
}

// lineNote names the upload-from line of the file, if it has one.
func lineNote(p *policy.Policy) string {
	if p.UploadFromLine > 0 {
		return fmt.Sprintf(" (line %d)", p.UploadFromLine)
	}
	return " (the default)"
}

// refuseFile is the refusal of a file that cannot be uploaded.
func refuseFile(format string, args ...any) error {
	return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
		"check the path; nothing was put into the page", format, args...)
}

// missingFile is the refusal of a file that does not exist — and, in the
// same words, of one an agent may not send or learn of (a blocked site's
// download): not_found, naming the path as the agent gave it.
func missingFile(path string) error {
	return protocol.Errorf(protocol.CodeNotFound, protocol.BoundaryPayload,
		"check the path; nothing was put into the page", "%s: no such file", path)
}

func uploadTooLarge(path string) error {
	return protocol.Errorf(protocol.CodeTooLarge, protocol.BoundaryPayload, "upload smaller files, or fewer at once",
		"%s: the files of one upload may add up to %d MiB at most", path, protocol.MaxUploadBytes>>20)
}

// testHookBeforeOpen, when set by a test, runs between the judging of a
// file and its opening: the moment something could swap it.
var testHookBeforeOpen func(path string)

// openUpload opens the judged file at path: without following a link in
// its place (O_NOFOLLOW), without blocking (O_NONBLOCK: a named pipe
// swapped in would otherwise wait for a writer), then checks through the
// open file that it is a regular file and that it is the file judged —
// the path it was opened by still leads to it, with no link on the way
// (openedIsJudged).
func openUpload(path string) (*os.File, fs.FileInfo, error) {
	if testHookBeforeOpen != nil {
		testHookBeforeOpen(path)
	}
	f, err := openNoFollow(path)
	if err != nil {
		if isLinkError(err) {
			return nil, nil, refuseFile("%s became a link after it was checked; nothing was read", path)
		}
		return nil, nil, refuseFile("%s: %s", path, fileProblem(err))
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, refuseFile("%s: %s", path, fileProblem(err))
	}
	if st.IsDir() {
		f.Close()
		return nil, nil, refuseFile("%s is a folder, not a file", path)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, refuseFile("%s is not a regular file", path)
	}
	if !openedIsJudged(f, st, path) {
		f.Close()
		return nil, nil, refuseFile("%s changed after it was checked (a folder on its way became a link); nothing was read", path)
	}
	return f, st, nil
}

// readUploadFile reads one open file of at most room bytes.
func readUploadFile(f *os.File, path string, room int64) ([]byte, protocol.UploadFile, error) {
	var none protocol.UploadFile
	st, err := f.Stat()
	if err != nil {
		return nil, none, refuseFile("%s: %s", path, fileProblem(err))
	}
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
				wait, err := extStart(h.port, protocol.ExtUploadChunk, params)
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
		return callExt(ctx, h, protocol.ExtAct, params, res)
	}
	var total int64
	for _, f := range up.spec.Files {
		total += f.Size
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout+time.Duration(1+total>>20)*time.Second)
	defer cancel()
	return extCall(ctx, h.port, protocol.ExtAct, params, res)
}

// uploadDetail is what the person's question and the record of what
// agents did say of an upload: the real files, resolved (a person
// checking what leaves their machine needs to know which file it is, not
// the name of a link to it).
func uploadDetail(paths []string) string {
	names := make([]string, 0, len(paths))
	for i, p := range paths {
		if i == 5 {
			names = append(names, fmt.Sprintf("and %d more", len(paths)-i))
			break
		}
		names = append(names, p)
	}
	return strings.Join(names, ", ")
}
