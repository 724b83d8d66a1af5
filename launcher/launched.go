package launcher

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/grip-dev/grip/internal/atomicfile"
	"github.com/grip-dev/grip/internal/resumetoken"
)

// EnvLaunch is set in the environment of a browser `grip launch` starts,
// and so of the host that browser starts: a JSON Launch. A browser started
// any other way — the person's own — has none, and its host keeps the
// person's rules (docs/person.md, "A browser grip launched").
const EnvLaunch = "GRIP_LAUNCH"

// ResumeTokenName is the file in a launched profile's folder that holds
// the launcher's resume token (0600).
const ResumeTokenName = resumetoken.Name

// Launch is what a launched browser's host is told of its launch.
type Launch struct {
	// ProfileDir is the browser's --user-data-dir.
	ProfileDir string `json:"profile_dir"`
	// Headless: no one can answer the browser's questions.
	Headless bool `json:"headless,omitempty"`
	// ResumeSHA256 is the hex SHA-256 of the resume token: the environment
	// (readable by every process the browser starts) holds no secret.
	ResumeSHA256 string `json:"resume_sha256,omitempty"`
}

// Env returns the environment entry that tells the host of l.
func (l Launch) Env() string {
	b, _ := json.Marshal(l)
	return EnvLaunch + "=" + string(b)
}

// ErrBadLaunch is returned by ParseLaunch for a GRIP_LAUNCH it cannot use.
var ErrBadLaunch = errors.New("launcher: bad " + EnvLaunch)

// ParseLaunch reads a GRIP_LAUNCH value; ok is false when it is empty.
// A value that does not read well is an error, never a half-understood
// launch.
func ParseLaunch(v string) (l Launch, ok bool, err error) {
	if strings.TrimSpace(v) == "" {
		return Launch{}, false, nil
	}
	dec := json.NewDecoder(strings.NewReader(v))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return Launch{}, false, fmt.Errorf("%w: %v", ErrBadLaunch, err)
	}
	if dec.More() {
		return Launch{}, false, fmt.Errorf("%w: text after the JSON object", ErrBadLaunch)
	}
	if !filepath.IsAbs(l.ProfileDir) {
		return Launch{}, false, fmt.Errorf("%w: profile_dir %q is not an absolute path", ErrBadLaunch, l.ProfileDir)
	}
	if l.ResumeSHA256 != "" {
		if b, err := hex.DecodeString(l.ResumeSHA256); err != nil || len(b) != sha256.Size {
			return Launch{}, false, fmt.Errorf("%w: resume_sha256 is not a hex SHA-256", ErrBadLaunch)
		}
	}
	return l, true, nil
}

// NewResumeToken makes a random resume token and returns it with its hex
// SHA-256 (for Launch.ResumeSHA256).
func NewResumeToken() (token, sum string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", err
	}
	token = hex.EncodeToString(b)
	return token, TokenSum(token), nil
}

// TokenSum is the hex SHA-256 of a token as written in its file (without
// surrounding white space).
func TokenSum(token string) string {
	h := sha256.Sum256([]byte(strings.TrimSpace(token)))
	return hex.EncodeToString(h[:])
}

// TokenMatches reports, in constant time, whether token is the one whose
// sum the launch holds.
func (l Launch) TokenMatches(token string) bool {
	if l.ResumeSHA256 == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(TokenSum(token)), []byte(strings.ToLower(l.ResumeSHA256))) == 1
}

// WriteResumeToken writes token to profileDir/ResumeTokenName, readable by
// this user alone, and returns its path.
func WriteResumeToken(profileDir, token string) (string, error) {
	p := filepath.Join(profileDir, ResumeTokenName)
	return p, atomicfile.WriteFile(p, []byte(token+"\n"), 0o600)
}

// ReadResumeToken reads a token file, refusing one others may read
// (resumetoken.Read).
func ReadResumeToken(path string) (string, error) { return resumetoken.Read(path) }
