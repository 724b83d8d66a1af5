package extension

import (
	"bytes"
	"io/fs"
	"regexp"
	"testing"
)

// kernelFilesRegexp is the regexp kernelFilesList reads by hand (kept out
// of the binary, docs/cli-cost.md, "The CLI's fixed cost"): these
// tests hold the two equal, on a table and under fuzzing.
var kernelFilesRegexp = regexp.MustCompile(`(?s)export const KERNEL_FILES = \[(.*?)\];`)

// kernelFilesCases are sources with the list each holds, if one.
var kernelFilesCases = []struct {
	src  string
	list string
	ok   bool
}{
	{"", "", false},
	{"export const KERNEL_FILES = [];", "", true},
	{"export const KERNEL_FILES = ['a.js'];", "'a.js'", true},
	{"// x\nexport const KERNEL_FILES = [\n  'a.js',\n  'b.js',\n];\n", "\n  'a.js',\n  'b.js',\n", true},
	{"export const KERNEL_FILES = ['a.js']; export const KERNEL_FILES = ['b.js'];", "'a.js'", true},
	{"export const KERNEL_FILES = ['a.js'] ];", "'a.js'] ", true},
	{"export const KERNEL_FILES = [[]];", "[]", true},
	{"export const KERNEL_FILES = [\xff\n];", "\xff\n", true},
	{"export const KERNEL_FILES = [export const KERNEL_FILES = [x];", "export const KERNEL_FILES = [x", true},
	{"];export const KERNEL_FILES = [];", "", true},
	{"export const KERNEL_FILES = [];];", "", true},
	{"export const KERNEL_FILES = ['a.js']", "", false},
	{"export const KERNEL_FILES = ['a.js'] ;", "", false},
	{"export const KERNEL_FILES = ['a.js']\n;", "", false},
	{"];export const KERNEL_FILES = ['a.js']", "", false},
	{"export const KERNEL_FILES=[];", "", false},
	{"export  const KERNEL_FILES = [];", "", false},
	{"export const kernel_files = [];", "", false},
}

func TestKernelFilesList(t *testing.T) {
	for _, c := range kernelFilesCases {
		if list, ok := kernelFilesList([]byte(c.src)); ok != c.ok || string(list) != c.list {
			t.Errorf("kernelFilesList(%q) = %q, %v; want %q, %v", c.src, list, ok, c.list, c.ok)
		}
		checkKernelFilesList(t, []byte(c.src))
	}
	// The file the binary embeds.
	src, err := fs.ReadFile(files, "worker/kernel-files.js")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := kernelFilesList(src); !ok {
		t.Error("kernel-files.js holds no list")
	}
	checkKernelFilesList(t, src)
}

// checkKernelFilesList fails where kernelFilesList and the regexp
// disagree on src.
func checkKernelFilesList(t *testing.T, src []byte) {
	t.Helper()
	list, ok := kernelFilesList(src)
	m := kernelFilesRegexp.FindSubmatch(src)
	if ok != (m != nil) || m != nil && !bytes.Equal(list, m[1]) {
		t.Errorf("kernelFilesList(%q) = %q, %v; the regexp finds %q", src, list, ok, m)
	}
}

func FuzzKernelFilesList(f *testing.F) {
	for _, c := range kernelFilesCases {
		f.Add([]byte(c.src))
	}
	f.Fuzz(checkKernelFilesList)
}
