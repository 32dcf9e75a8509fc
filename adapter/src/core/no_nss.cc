// Link-time guard for the static pinta-gemini: every libc entry point that can reach NSS is
// redirected (ld --wrap, adapter/CMakeLists.txt) to a stub here that fails like "not found".
//
// Why: in a static executable glibc answers these calls by dlopen'ing the modules nsswitch.conf
// names (`systemd`, `mdns4_minimal`, `sss`, ...), which are built for the shared glibc and crash
// or hang a static process (seen: exit 139 with no reply for a uid without a passwd entry under
// `passwd: files systemd`). The adapter reads /etc/passwd (common/src/fs.cc home_dir) and resolves
// host names (resolver.h) itself; these stubs make sure nothing else linked in — the OpenSSL
// archives reference getaddrinfo, getnameinfo, gethostbyname and getservbyname from their BIO
// helpers — can still reach a module. environment_process_test proves it with a module that ends
// the process when loaded.
#include <grp.h>
#include <netdb.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <cerrno>

extern "C" {

int __wrap_getaddrinfo(const char*, const char*, const struct addrinfo*, struct addrinfo** res) {
  if (res != nullptr) *res = nullptr;
  return EAI_FAIL;
}
int __wrap_getnameinfo(const struct sockaddr*, socklen_t, char*, socklen_t, char*, socklen_t, int) {
  return EAI_FAIL;
}
struct hostent* __wrap_gethostbyname(const char*) {
  h_errno = NO_RECOVERY;
  return nullptr;
}
struct hostent* __wrap_gethostbyname2(const char*, int) {
  h_errno = NO_RECOVERY;
  return nullptr;
}
struct hostent* __wrap_gethostbyaddr(const void*, socklen_t, int) {
  h_errno = NO_RECOVERY;
  return nullptr;
}
int __wrap_gethostbyname_r(const char*, struct hostent*, char*, size_t, struct hostent** result,
                           int* err) {
  *result = nullptr;
  if (err != nullptr) *err = NO_RECOVERY;
  return ENOENT;
}
int __wrap_gethostbyname2_r(const char*, int, struct hostent*, char*, size_t,
                            struct hostent** result, int* err) {
  *result = nullptr;
  if (err != nullptr) *err = NO_RECOVERY;
  return ENOENT;
}
struct servent* __wrap_getservbyname(const char*, const char*) {
  return nullptr;
}
struct servent* __wrap_getservbyport(int, const char*) {
  return nullptr;
}
struct protoent* __wrap_getprotobyname(const char*) {
  return nullptr;
}
struct protoent* __wrap_getprotobynumber(int) {
  return nullptr;
}
struct passwd* __wrap_getpwuid(uid_t) {
  return nullptr;
}
struct passwd* __wrap_getpwnam(const char*) {
  return nullptr;
}
int __wrap_getpwuid_r(uid_t, struct passwd*, char*, size_t, struct passwd** result) {
  *result = nullptr;
  return 0;  // no entry
}
int __wrap_getpwnam_r(const char*, struct passwd*, char*, size_t, struct passwd** result) {
  *result = nullptr;
  return 0;
}
struct group* __wrap_getgrgid(gid_t) {
  return nullptr;
}
struct group* __wrap_getgrnam(const char*) {
  return nullptr;
}
int __wrap_getgrgid_r(gid_t, struct group*, char*, size_t, struct group** result) {
  *result = nullptr;
  return 0;
}
int __wrap_getgrnam_r(const char*, struct group*, char*, size_t, struct group** result) {
  *result = nullptr;
  return 0;
}

}  // extern "C"
