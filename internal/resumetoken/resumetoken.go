// Package resumetoken reads the resume token file `grip launch` writes in
// a launched profile's folder (launcher.WriteResumeToken), for `grip
// resume --token-file`: a leaf, so the agent commands' grip links none of
// the launcher (docs/person.md, "A browser grip launched").
package resumetoken

import (
	"fmt"
	"os"
	"runtime"
	"strings"
)

// Name is the file in a launched profile's folder that holds the
// launcher's resume token (0600).
const Name = "grip-resume.token"

// Read reads a token file, refusing one others may read: a token anyone
// could have read proves nothing.
func Read(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().Perm()&0o077 != 0 && runtime.GOOS != "windows" {
		return "", fmt.Errorf("%s may be read by other users (mode %v): it is no secret any more; relaunch with grip launch for a new one", path, st.Mode().Perm())
	}
	b := make([]byte, 256)
	n, _ := f.Read(b)
	tok := strings.TrimSpace(string(b[:n]))
	if tok == "" {
		return "", fmt.Errorf("%s is empty", path)
	}
	return tok, nil
}
