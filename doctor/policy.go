package doctor

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/grip-dev/grip/policy"
)

// checkPolicy reads the person's policy file as the host would: a file
// that does not parse is a ✗ naming the line, since the rules in it are
// not the ones in force (the host keeps the last good policy).
func checkPolicy(env Env) Check {
	path := policy.Path(env.StateRoot)
	c := Check{Name: "policy", OK: true}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		c.Detail = "no policy file yet: agents may read and act on every site (" + path + " is written when a browser connects)"
		return c
	}
	if err != nil {
		c.OK, c.Detail = false, fmt.Sprintf("cannot read %s: %v", path, err)
		c.Fix = "make the file yours and readable (mode 0600)"
		return c
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, policy.MaxFileSize+1))
	if err != nil {
		c.OK, c.Detail = false, fmt.Sprintf("cannot read %s: %v", path, err)
		return c
	}
	p, err := policy.Parse(data)
	if err != nil {
		c.OK = false
		c.Detail = fmt.Sprintf("%s: %v; the host keeps the last policy that read well", path, err)
		c.Fix = "correct that line (the comments at the top of the file show the format); the host applies the file within a second of saving"
		return c
	}
	c.Detail = fmt.Sprintf("%s: %d rule(s), default %s, tabs %s", path, len(p.Entries), p.DefaultRule, p.Tabs)
	return c
}
