package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/grip-dev/grip/install"
	"github.com/grip-dev/grip/internal/browsertest"
)

// A test that must not see the machine's system-wide folders (a `grip
// install --system` of the person's, in /var/lib/grip, /etc/…, beside the
// browsers) runs again in a child test process with a private mount
// namespace. There every system folder grip's install writes is hidden
// behind an overlay whose changes live in a tmpfs of the child's: the
// folder looks absent, the test may create and remove it, and the machine
// is left exactly as it was, whatever the test does or however it ends.
const (
	privateEnv     = "GRIP_E2E_PRIVATE_SYSTEM" // the test the child runs
	privateNSEnv   = "GRIP_E2E_PARENT_MNT_NS"  // the parent's mount namespace, which the child must not be in
	privateBinEnv  = "GRIP_E2E_BIN"            // the parent's grip binary
	privateDirEnv  = "GRIP_E2E_SCRATCH"        // where the child's tmpfs goes
	privateUserEnv = "GRIP_E2E_USER_NS"        // "1": the child is in a user namespace too
)

// inPrivateSystem reports true when t runs in its private namespace (the
// test then goes on), and false in the parent, which has run the child,
// passed its output on and failed when it failed.
func inPrivateSystem(t *testing.T) bool {
	t.Helper()
	if os.Getenv(privateEnv) == t.Name() {
		hideSystemFolders(t)
		return true
	}
	// The test binary runs this test alone in a new mount namespace (Go
	// makes its mounts private, so nothing propagates back).
	ns, err := os.Readlink("/proc/self/ns/mnt")
	if err != nil {
		t.Fatalf("cannot read this process's mount namespace: %v", err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v", "-test.timeout=15m")
	cmd.Dir, _ = os.Getwd()
	cmd.Env = append(os.Environ(), privateEnv+"="+t.Name(), privateNSEnv+"="+ns,
		privateBinEnv+"="+env.BinOrSkip(t), privateDirEnv+"="+t.TempDir())
	cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS}
	if os.Geteuid() != 0 {
		// Anyone else gets a user namespace in which they are root, and may
		// mount there.
		cmd.Env = append(cmd.Env, privateUserEnv+"=1")
		cmd.SysProcAttr.Cloneflags = syscall.CLONE_NEWUSER
		cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	t.Logf("in a private mount namespace:\n%s", indent(out.String()))
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		t.Fatalf("the test failed in its private mount namespace (exit %d)", ee.ExitCode())
	case err != nil:
		t.Fatalf("cannot run the test in a private mount namespace: %v", err)
	case !strings.Contains(out.String(), "--- PASS: "+t.Name()) && !strings.Contains(out.String(), "--- SKIP: "+t.Name()):
		t.Fatalf("the child did not run %s", t.Name())
	case strings.Contains(out.String(), "--- SKIP: "+t.Name()):
		t.Skip("skipped in its private mount namespace")
	}
	return false
}

// hideSystemFolders makes every folder install.SystemFolders names look
// absent, with an overlay over the nearest folder that exists above it.
func hideSystemFolders(t *testing.T) {
	t.Helper()
	ns, err := os.Readlink("/proc/self/ns/mnt")
	if err != nil || ns == os.Getenv(privateNSEnv) {
		// Never mount anything in the machine's own namespace.
		t.Fatalf("not in a private mount namespace (%s, the parent's %s): %v", ns, os.Getenv(privateNSEnv), err)
	}
	scratch := os.Getenv(privateDirEnv)
	if err := syscall.Mount("grip-e2e", scratch, "tmpfs", 0, "mode=0700"); err != nil {
		t.Fatalf("tmpfs on %s: %v", scratch, err)
	}
	folders := install.SystemFolders("")
	var tops []string
	for _, f := range folders {
		top := filepath.Dir(f)
		for {
			if fi, err := os.Stat(top); err == nil && fi.IsDir() {
				break
			}
			top = filepath.Dir(top)
		}
		if top == "/" {
			t.Fatalf("no folder above %s to lay an overlay on but /", f)
		}
		tops = append(tops, top)
	}
	slices.Sort(tops)
	tops = slices.Compact(tops)
	// An overlay over a folder covers those under it.
	tops = slices.DeleteFunc(tops, func(p string) bool {
		return slices.ContainsFunc(tops, func(q string) bool { return strings.HasPrefix(p, q+"/") })
	})
	for i, top := range tops {
		upper, work := filepath.Join(scratch, fmt.Sprint(i), "upper"), filepath.Join(scratch, fmt.Sprint(i), "work")
		for _, d := range []string{upper, work} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		// The overlay's root takes the mode and owner of its upper folder.
		if fi, err := os.Stat(top); err == nil {
			os.Chmod(upper, fi.Mode().Perm())
		}
		opts := "lowerdir=" + top + ",upperdir=" + upper + ",workdir=" + work
		if err := syscall.Mount("grip-e2e", top, "overlay", 0, opts); err != nil {
			t.Fatalf("overlay on %s: %v", top, err)
		}
	}
	for _, f := range folders {
		// Removed from the overlay only: its upper layer records it gone.
		err := os.RemoveAll(f)
		if errors.Is(err, fs.ErrPermission) && os.Getenv(privateUserEnv) != "" {
			// Someone not root, in a user namespace, cannot list a folder
			// only the real root may read: an empty tmpfs covers it instead
			// (only the system install test removes these folders, as root).
			err = syscall.Mount("grip-e2e", f, "tmpfs", 0, "mode=0755")
		}
		if err != nil {
			t.Fatalf("hiding %s: %v", f, err)
		}
	}
	for _, f := range folders {
		if entries, err := os.ReadDir(f); !errors.Is(err, fs.ErrNotExist) && (err != nil || len(entries) > 0) {
			t.Fatalf("%s is still there in the private namespace: %v", f, err)
		}
	}
	t.Logf("hidden in this mount namespace: %s (overlays on %s)", strings.Join(folders, ", "), strings.Join(tops, ", "))
}

// privateChildBin is, in a child of inPrivateSystem (or of
// TestInstallTestsBesideASystemInstall), the parent's grip binary: the
// child starts no shared browser of its own.
func privateChildBin() (string, bool) {
	bin := os.Getenv(privateBinEnv)
	return bin, bin != ""
}

func indent(s string) string {
	return "\t" + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n\t")
}

// TestInstallTestsBesideASystemInstall is the machine the install tests
// must pass on: grip installed system-wide (in this test's private mount
// namespace: /var/lib/grip, Chromium's system host manifest and its
// external-extensions listing). Both install tests run there, each in a
// namespace of its own again, pass, and leave that install as it was.
func TestInstallTestsBesideASystemInstall(t *testing.T) {
	ie := newInstallEnv(t)
	if browsertest.FindBrowser() == "" {
		t.Skip("no browser")
	}
	if os.Geteuid() != 0 {
		t.Skip("makes a system-wide install (in a private mount namespace): run as root (CI does)")
	}
	if !inPrivateSystem(t) {
		return
	}
	if r := ie.grip(t, "install", "--system", "--browser", "chromium", "--json"); r.Code != 0 {
		t.Fatalf("grip install --system: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if _, ok, err := install.ReadSystemReceipt(""); !ok {
		t.Fatalf("no system-wide install after grip install --system: %v", err)
	}
	state := func() map[string]string {
		out := map[string]string{}
		for _, f := range install.SystemFolders("") {
			if _, err := os.Stat(f); err == nil {
				maps.Copy(out, fileState(t, f))
			}
		}
		return out
	}
	before := state()

	var environ []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name != privateEnv && name != privateNSEnv && name != privateDirEnv && name != privateUserEnv {
			environ = append(environ, kv)
		}
	}
	tests := []string{"TestInstallThenConnect", "TestSystemInstallConnects"}
	cmd := exec.Command(os.Args[0], "-test.run=^("+strings.Join(tests, "|")+")$", "-test.count=1", "-test.v", "-test.timeout=15m")
	cmd.Dir, _ = os.Getwd()
	cmd.Env = environ
	out, err := cmd.CombinedOutput()
	t.Logf("beside a system-wide install:\n%s", indent(string(out)))
	if err != nil {
		t.Errorf("the install tests failed beside a system-wide install: %v", err)
	}
	for _, name := range tests {
		if !strings.Contains(string(out), "\n--- PASS: "+name+" ") {
			t.Errorf("%s did not pass beside a system-wide install", name)
		}
	}
	if after := state(); !maps.Equal(after, before) {
		t.Errorf("the system-wide install changed under the tests:\nbefore %v\nafter  %v", before, after)
	}
}
