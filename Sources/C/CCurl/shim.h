#include <curl/curl.h>

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot call:
// one typed wrapper per argument kind.
static inline CURLcode screentime_curl_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode screentime_curl_setopt_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode screentime_curl_setopt_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode screentime_curl_setopt_write_function(CURL *curl,
                                                             size_t (*function)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, function);
}
static inline CURLcode screentime_curl_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}
