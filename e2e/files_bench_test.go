package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
)

// BenchmarkUpload measures `grip upload` end to end (the CLI, the host
// reading the file and streaming it in chunks, the worker handing it to
// the page, the kernel building the File and the page's change handler)
// for files of 1 KiB (the fixed cost: an action plus one chunk), 1, 10 and
// 50 MiB, into files.html's input whose change handler hashes every file.
//
//	GRIP_REQUIRE_BROWSER=1 go test -run '^$' -bench BenchmarkUpload -benchtime 3x ./e2e/
func BenchmarkUpload(b *testing.B) {
	browsertest.Need(b, env)
	for _, kib := range []int{1, 1 << 10, 10 << 10, 50 << 10} {
		name := fmt.Sprintf("%dKiB", kib)
		if kib >= 1<<10 {
			name = fmt.Sprintf("%dMiB", kib>>10)
		}
		b.Run(name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "blob.bin")
			if err := os.WriteFile(path, make([]byte, kib<<10), 0o600); err != nil {
				b.Fatal(err)
			}
			tab := env.OpenTab(b, env.Origin1+"/files.html")
			b.SetBytes(int64(kib << 10))
			b.ResetTimer()
			for range b.N {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
				r := env.Grip(ctx, "upload", "--tab", fmt.Sprint(tab), "#f2", path)
				cancel()
				if r.Code != 0 {
					b.Fatalf("grip upload: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
				}
			}
		})
	}
}
