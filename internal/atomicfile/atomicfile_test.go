package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f.json")
	for i, content := range []string{"first", "second, longer"} {
		if err := WriteFile(name, []byte(content), 0o600); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
		got, err := os.ReadFile(name)
		if err != nil || string(got) != content {
			t.Fatalf("write %d: read %q, %v", i, got, err)
		}
		st, _ := os.Stat(name)
		if st.Mode().Perm() != 0o600 {
			t.Fatalf("mode %v", st.Mode().Perm())
		}
	}
	left, _ := os.ReadDir(dir)
	if len(left) != 1 {
		t.Fatalf("temp files left behind: %v", left)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "f"), []byte("x"), 0o644); err == nil {
		t.Fatal("write into a missing folder succeeded")
	}
}
