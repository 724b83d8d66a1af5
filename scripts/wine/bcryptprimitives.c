/* Test-only stand-in for Windows' bcryptprimitives.dll, which Wine 8 lacks:
 * Go 1.26 binaries call its ProcessPrng for random bytes. It forwards to
 * advapi32's RtlGenRandom (SystemFunction036). scripts/test-windows builds
 * it into its own Wine prefix; it is never shipped. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
	for (; len > 0;) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
