// Package outdir is the output folder grip owns for the files the MCP
// server writes and reads (docs/files.md, "Files in and out"): one
// folder per browser profile under grip's state root, created 0700 by
// grip, never a link. An MCP tool names a file there by a bare name (no
// separator, no leading dot, not ".."), never a path; a file is created
// only as a new one, never through a link, and read only when it is a
// regular file that is not a link. An agent that has only the MCP tools
// therefore cannot write ~/.bash_profile or read ~/.ssh/id_ed25519.
package outdir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// MaxName is the longest file name accepted, in bytes (most file systems
// hold 255).
const MaxName = 200

// ForProfile is the output folder of profile under grip's state root:
// ROOT/output/PROFILE ("default" when the profile is not known).
func ForProfile(profile string) (string, error) {
	root, err := statedir.Root()
	if err != nil {
		return "", err
	}
	if CheckName(profile) != nil {
		profile = "default"
	}
	return filepath.Join(root, "output", profile), nil
}

// Dir is an output folder, opened and checked.
type Dir struct {
	path string
	root *os.Root
}

// Open creates the folder at path (0700, and its parents 0700) when it is
// missing and opens it. A folder that is a link, is not a folder, or (on
// Unix) is not this user's or is open to others is refused: grip writes
// only where it alone can.
func Open(path string) (*Dir, error) {
	path = filepath.Clean(path)
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("outdir: %s is not an absolute path", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	if err := os.Mkdir(path, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode()&fs.ModeSymlink != 0 || !st.IsDir() {
		return nil, fmt.Errorf("outdir: %s is a link or not a folder; grip writes only into a folder it made", path)
	}
	if err := ownedPrivate(st); err != nil {
		return nil, fmt.Errorf("outdir: %s: %w", path, err)
	}
	root, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	again, err := root.Stat(".")
	if err != nil || !os.SameFile(st, again) {
		root.Close()
		return nil, fmt.Errorf("outdir: %s changed while it was opened", path)
	}
	return &Dir{path: path, root: root}, nil
}

// Path is the folder's absolute path.
func (d *Dir) Path() string { return d.path }

// Close releases the folder.
func (d *Dir) Close() error { return d.root.Close() }

// File is the full path of name in the folder.
func (d *Dir) File(name string) string { return filepath.Join(d.path, name) }

// CheckName refuses what is not a plain new-file name: empty, a path (a
// separator, a drive, ".."), a dot-name, control characters, a trailing
// dot or space (Windows drops them), or longer than MaxName. The error is
// a bad_request whose hint says what to give instead.
func CheckName(name string) error {
	bad := func(why string) error {
		return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"give a file name only, such as \"statement.grip\": files go to grip's output folder (browser_status names it)",
			"%q is not a file name: %s", clip(name), why)
	}
	switch {
	case name == "":
		return bad("it is empty")
	case name == "." || name == "..":
		return bad("it names a folder")
	case strings.ContainsAny(name, `/\`):
		return bad("it is a path; MCP tools take a file name in grip's output folder, never a path")
	case strings.ContainsRune(name, ':'):
		return bad("it holds ':' (a drive or a stream on Windows)")
	case strings.HasPrefix(name, "."):
		return bad("it starts with a dot (hidden and configuration files are not written)")
	case strings.HasPrefix(name, "~"):
		return bad("it starts with ~ (a home folder is a path)")
	case len(name) > MaxName:
		return bad(fmt.Sprintf("it is longer than %d bytes", MaxName))
	case !utf8.ValidString(name):
		return bad("it is not UTF-8 text")
	case strings.HasSuffix(name, ".") || strings.HasSuffix(name, " "):
		return bad("it ends with a dot or a space")
	}
	for _, r := range name {
		if unicode.IsControl(r) || r == 0x2028 || r == 0x2029 {
			return bad("it holds a control character")
		}
	}
	return nil
}

// clip keeps a refused name short in a message.
func clip(s string) string {
	if len(s) <= 80 {
		return s
	}
	return s[:77] + "…"
}

// errExists is the refusal of a name that is taken.
func (d *Dir) errExists(name string, link bool) error {
	if link {
		return protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy, "give another file name",
			"%s in grip's output folder is a link; grip never writes or reads through one", name)
	}
	return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
		"give a new file name; grip does not overwrite files", "%s already exists in grip's output folder %s", name, d.path)
}

// CheckNew refuses name unless it is a file name (CheckName) that is
// free in the folder: no file, folder or link of that name.
func (d *Dir) CheckNew(name string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	st, err := d.root.Lstat(name)
	if err == nil {
		return d.errExists(name, st.Mode()&fs.ModeSymlink != 0)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// WriteNew writes data to a new file name in the folder (0600, created
// exclusively, never through a link); on a failed write the partial file
// is removed. The file's full path is returned.
func (d *Dir) WriteNew(name string, data []byte) (string, error) {
	if err := d.CheckNew(name); err != nil {
		return "", err
	}
	fh, err := d.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|createFlags, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			st, _ := d.root.Lstat(name)
			return "", d.errExists(name, st != nil && st.Mode()&fs.ModeSymlink != 0)
		}
		return "", err
	}
	_, werr := fh.Write(data)
	cerr := fh.Close()
	if err := errors.Join(werr, cerr); err != nil {
		d.root.Remove(name)
		return "", err
	}
	return d.File(name), nil
}

// ReadFile reads file name of the folder, at most limit bytes: only a
// regular file that is not a link. A larger file is refused too_large
// without reading further. Errors never quote the file's content.
func (d *Dir) ReadFile(name string, limit int64) ([]byte, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	st, err := d.root.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, protocol.Errorf(protocol.CodeNotFound, protocol.BoundaryPayload,
			"give the name of a file in grip's output folder (browser_status names it)", "no file %s in grip's output folder %s", name, d.path)
	}
	if err != nil {
		return nil, err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return nil, d.errExists(name, true)
	}
	if !st.Mode().IsRegular() {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give a file's name", "%s in grip's output folder is not a file", name)
	}
	fh, err := d.root.OpenFile(name, os.O_RDONLY|readFlags, 0)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if now, err := fh.Stat(); err != nil || !os.SameFile(st, now) {
		return nil, d.errExists(name, true) // swapped for a link meanwhile
	}
	b, err := io.ReadAll(io.LimitReader(fh, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, protocol.Errorf(protocol.CodeTooLarge, protocol.BoundaryPayload, "",
			"%s is larger than %d bytes", name, limit)
	}
	return b, nil
}
