/* libnss_pintatrip.so.2: an NSS module that must never be loaded. environment_process_test names
 * it in a private /etc/nsswitch.conf (passwd, group, hosts, services) and puts it on
 * LD_LIBRARY_PATH: a static glibc that reaches an NSS lookup dlopens it, and its constructor ends
 * the process with exit status 86 and a line on stderr, like the crashing `systemd` module did in
 * a container whose uid has no passwd entry. Built only with the tests. */
#include <unistd.h>

__attribute__((constructor)) static void pintatrip_loaded(void) {
  static const char msg[] = "nss tripwire: an NSS module was loaded\n";
  (void)!write(2, msg, sizeof msg - 1);
  _exit(86);
}

/* The entry points glibc looks up (never reached: the constructor runs first). */
int _nss_pintatrip_getpwuid_r(void) { return 0; }
int _nss_pintatrip_gethostbyname4_r(void) { return 0; }
int _nss_pintatrip_gethostbyname2_r(void) { return 0; }
