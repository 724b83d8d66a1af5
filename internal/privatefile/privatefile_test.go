package privatefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteNew(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.png")
	if err := WriteNew(p, []byte("x")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v err %v, want 0600", fi.Mode(), err)
	}
	if err := WriteNew(p, []byte("y")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("over an existing file: %v", err)
	}
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	link := filepath.Join(dir, "link.png")
	os.Symlink(victim, link)
	if err := WriteNew(link, []byte("z")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("through a link: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the link's target changed: %q", b)
	}
}

func TestReplace(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.pdf")
	if err := Replace(p, []byte("x")); err != nil {
		t.Fatal(err)
	}
	os.Chmod(p, 0o644)
	if err := Replace(p, []byte("y")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "y" {
		t.Errorf("content %q, want y", b)
	}
	if fi, _ := os.Lstat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode())
	}
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	link := filepath.Join(dir, "link.pdf")
	os.Symlink(victim, link)
	if err := Replace(link, []byte("z")); !errors.Is(err, ErrNotRegular) {
		t.Errorf("over a link: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the link's target changed: %q", b)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced")
	}
	if err := Replace(dir, []byte("z")); !errors.Is(err, ErrNotRegular) {
		t.Errorf("over a folder: %v", err)
	}
}
