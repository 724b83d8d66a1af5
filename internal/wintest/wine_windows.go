package wintest

import "golang.org/x/sys/windows"

// Wine reports whether this Windows is Wine (its ntdll exports
// wine_get_version), for the tests that check what Wine does not do and
// say so when they skip.
func Wine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}
