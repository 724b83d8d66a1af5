// Package winpath joins Windows paths with backslashes whatever OS runs
// the code, so the per-OS tables (install's manifest locations, statedir's
// state folder) can be tested on Linux.
package winpath

import "strings"

// Join joins path elements with one backslash between each two, turning
// slashes into backslashes and leaving out empty elements.
func Join(elem ...string) string {
	var parts []string
	for i, e := range elem {
		e = strings.ReplaceAll(e, "/", `\`)
		if i > 0 {
			e = strings.TrimLeft(e, `\`)
		}
		if i < len(elem)-1 {
			e = strings.TrimRight(e, `\`)
		}
		if e != "" {
			parts = append(parts, e)
		}
	}
	return strings.Join(parts, `\`)
}
