package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
)

// BenchmarkUpload measures `grip upload` end to end (the CLI, the host
// reading the file and streaming it in chunks, the worker handing it to
// the page, the kernel building the File and the page's change handler)
// for files of 1, 10 and 50 MiB, into files.html's input whose change
// handler hashes every file.
//
//	GRIP_REQUIRE_BROWSER=1 go test -run '^$' -bench BenchmarkUpload -benchtime 3x ./e2e/
func BenchmarkUpload(b *testing.B) {
	browsertest.Need(b, env)
	for _, mib := range []int{1, 10, 50} {
		b.Run(fmt.Sprintf("%dMiB", mib), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "blob.bin")
			if err := os.WriteFile(path, make([]byte, mib<<20), 0o600); err != nil {
				b.Fatal(err)
			}
			tab := env.OpenTab(b, env.Origin1+"/files.html")
			b.SetBytes(int64(mib << 20))
			b.ResetTimer()
			for range b.N {
				env.MustGrip(b, "upload", "--tab", fmt.Sprint(tab), "#f2", path)
			}
		})
	}
}
