package outdir

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

func mustOpen(tb testing.TB) (*Dir, string) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "state", "output", "work")
	d, err := Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { d.Close() })
	return d, path
}

func TestOpenMakesAPrivateFolder(t *testing.T) {
	_, path := mustOpen(t)
	st, err := os.Lstat(path)
	if err != nil || !st.IsDir() {
		t.Fatalf("%s: %v %v", path, st, err)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm() != 0o700 {
		t.Errorf("mode %v, want 0700", st.Mode().Perm())
	}
}

func TestOpenRefusesALinkOrAnOpenFolder(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	os.Mkdir(real, 0o700)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	if d, err := Open(link); err == nil {
		d.Close()
		t.Errorf("a link was opened as the output folder")
	}
	if runtime.GOOS == "windows" {
		return
	}
	open := filepath.Join(dir, "open")
	os.Mkdir(open, 0o777)
	os.Chmod(open, 0o777)
	if d, err := Open(open); err == nil {
		d.Close()
		t.Errorf("a folder others may write was opened")
	}
}

// nameCases are names an agent might give that are not plain file names.
var nameCases = []string{
	"", ".", "..", "../x", "/etc/passwd", "a/b", `a\b`, "~/.bash_profile", "~x", ".bash_profile", ".grip",
	"C:x", "x.", "x ", "a\nb", "a\x00b", strings.Repeat("a", MaxName+1), "\xff",
}

func TestCheckNameRefusesPathsAndDotNames(t *testing.T) {
	for _, name := range nameCases {
		err := CheckName(name)
		if !errors.Is(err, protocol.ErrBadRequest) {
			t.Errorf("CheckName(%q) = %v, want bad_request", name, err)
		}
	}
	for _, name := range []string{"statement.grip", "page-3.pdf", "Ü x.png"} {
		if err := CheckName(name); err != nil {
			t.Errorf("CheckName(%q) = %v", name, err)
		}
	}
}

func TestWriteNewNeverOverwritesNorFollows(t *testing.T) {
	d, path := mustOpen(t)
	got, err := d.WriteNew("a.png", []byte("x"))
	if err != nil || got != filepath.Join(path, "a.png") {
		t.Fatalf("WriteNew = %q, %v", got, err)
	}
	if st, _ := os.Stat(got); runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	if _, err := d.WriteNew("a.png", []byte("y")); !errors.Is(err, protocol.ErrBadRequest) {
		t.Errorf("over an existing file: %v", err)
	}
	if b, _ := os.ReadFile(got); string(b) != "x" {
		t.Errorf("the existing file changed: %q", b)
	}
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("keep"), 0o600)
	if err := os.Symlink(victim, filepath.Join(path, "link.png")); err != nil {
		t.Skip(err)
	}
	if _, err := d.WriteNew("link.png", []byte("z")); !errors.Is(err, protocol.ErrPolicy) {
		t.Errorf("through a link: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the link's target changed: %q", b)
	}
	for _, name := range nameCases {
		if _, err := d.WriteNew(name, []byte("z")); err == nil {
			t.Errorf("WriteNew(%q) wrote", name)
		}
	}
}

func TestReadFileReadsOnlyRegularFilesUnderALimit(t *testing.T) {
	d, path := mustOpen(t)
	os.WriteFile(filepath.Join(path, "w.grip"), []byte("0123456789"), 0o600)
	if b, err := d.ReadFile("w.grip", 10); err != nil || string(b) != "0123456789" {
		t.Errorf("ReadFile = %q, %v", b, err)
	}
	if _, err := d.ReadFile("w.grip", 9); !errors.Is(err, protocol.ErrTooLarge) {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := d.ReadFile("none.grip", 10); !errors.Is(err, protocol.ErrNotFound) {
		t.Errorf("a missing file: %v", err)
	}
	secret := filepath.Join(t.TempDir(), "token")
	os.WriteFile(secret, []byte("s3cret"), 0o600)
	if err := os.Symlink(secret, filepath.Join(path, "token.grip")); err != nil {
		t.Skip(err)
	}
	_, err := d.ReadFile("token.grip", 100)
	if !errors.Is(err, protocol.ErrPolicy) || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("through a link: %v", err)
	}
	os.Mkdir(filepath.Join(path, "sub"), 0o700)
	if _, err := d.ReadFile("sub", 100); !errors.Is(err, protocol.ErrBadRequest) {
		t.Errorf("a folder: %v", err)
	}
}
