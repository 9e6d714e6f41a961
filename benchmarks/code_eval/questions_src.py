"""The questions of the code set (Python), written by hand against the source files
in docs/: five modules of Requests (sessions, adapters, models, utils, auth). Each
question's evidence is text exactly as the code reader extracts it (the file's own
text), found once in its file.

Tags: constant (a module- or class-level value), logic (what a function does: the
lines that do it), docstring (the answer is in a docstring), comment (the answer is
in a comment), error (the exception or message raised).
"""

TAGS = {"constant", "logic", "docstring", "comment", "error"}

Q = dict

S = "sessions.py"
A = "adapters.py"
M = "models.py"
U = "utils.py"
H = "auth.py"

QUESTIONS = [
    # -- sessions.py -----------------------------------------------------------------
    Q(doc=S, question="When following a redirect to another host, what happens to the "
                      "Authorization header?",
      evidence=["if old_parsed.hostname != new_parsed.hostname:\n            return True"],
      tags=["logic"]),
    Q(doc=S, question="Is the Authorization header kept when a request is redirected from "
                      "http to https on the same host?",
      evidence=["# Special case: allow http -> https redirect when using the standard"],
      tags=["comment"]),
    Q(doc=S, question="What happens to the request method when a POST gets a 301 response?",
      evidence=["# Second, if a POST is responded to with a 301, turn it into a GET."],
      tags=["comment"]),
    Q(doc=S, question="Which headers are dropped from a redirected request unless the "
                      "status is 307 or 308?",
      evidence=['purged_headers = ("Content-Length", "Content-Type", "Transfer-Encoding")'],
      tags=["logic"]),
    Q(doc=S, question="What exception and message do you get when a request follows too "
                      "many redirects?",
      evidence=['f"Exceeded {self.max_redirects} redirects.", response=resp'],
      tags=["error"]),
    Q(doc=S, question="How are redirect Location headers with UTF-8 characters decoded?",
      evidence=['location = location.encode("latin1")\n'
                '            return to_native_string(location, "utf8")'],
      tags=["logic"]),
    Q(doc=S, question="How does requests handle a redirect to a URL without a scheme, "
                      "starting with //?",
      evidence=["# Handle redirection without scheme (see: RFC 1808 Section 4)"],
      tags=["comment"]),
    Q(doc=S, question="Which environment variables can point requests at a CA bundle?",
      evidence=['os.environ.get("REQUESTS_CA_BUNDLE")\n'
                '                    or os.environ.get("CURL_CA_BUNDLE")'],
      tags=["logic"]),
    Q(doc=S, question="When several adapters are mounted, which one handles a URL?",
      evidence=["Adapters are sorted in descending order by prefix length."],
      tags=["docstring"]),
    Q(doc=S, question="What error is raised when no connection adapter matches a URL?",
      evidence=['raise InvalidSchema(f"No connection adapters were found for {url!r}")'],
      tags=["error"]),
    Q(doc=S, question="How is a response's elapsed time measured?",
      evidence=["elapsed = preferred_clock() - start\n"
                "        r.elapsed = timedelta(seconds=elapsed)"],
      tags=["logic"]),
    Q(doc=S, question="What happens if you pass a Request instead of a PreparedRequest to "
                      "Session.send?",
      evidence=['raise ValueError("You can only send PreparedRequests.")'], tags=["error"]),
    Q(doc=S, question="Which adapters does a new Session mount by default?",
      evidence=['self.mount("https://", HTTPAdapter())\n'
                '        self.mount("http://", HTTPAdapter())'],
      tags=["logic"]),
    # -- adapters.py -----------------------------------------------------------------
    Q(doc=A, question="How many connection pools and connections per pool does "
                      "HTTPAdapter use by default?",
      evidence=["DEFAULT_POOLSIZE = 10"], tags=["constant"]),
    Q(doc=A, question="Does requests retry failed connections by default?",
      evidence=["self.max_retries = Retry(0, read=False)"], tags=["logic"]),
    Q(doc=A, question="Which failures does HTTPAdapter's max_retries apply to?",
      evidence=["Note, this applies only to failed DNS lookups, socket\n"
                "        connections and connection timeouts, never to requests where data "
                "has\n        made it to the server."],
      tags=["docstring"]),
    Q(doc=A, question="What error do you get when the CA certificate bundle path does not "
                      "exist?",
      evidence=['f"Could not find a suitable TLS CA certificate bundle, "'], tags=["error"]),
    Q(doc=A, question="How is a (connect, read) timeout tuple turned into urllib3's "
                      "timeout?",
      evidence=["resolved_timeout = TimeoutSauce(connect=connect, read=read)"],
      tags=["logic"]),
    Q(doc=A, question="When does the adapter send a request body with chunked transfer "
                      "encoding?",
      evidence=['chunked = not (request.body is None or "Content-Length" in request.headers)'],
      tags=["logic"]),
    Q(doc=A, question="What happens when a SOCKS proxy is used without its dependencies "
                      "installed?",
      evidence=['raise InvalidSchema("Missing dependencies for SOCKS support.")'],
      tags=["error"]),
    Q(doc=A, question="When is the full URL sent in the request line instead of the path?",
      evidence=["If the message is being sent through a HTTP proxy, the full URL has to\n"
                "        be used."],
      tags=["docstring"]),
    Q(doc=A, question="How does the adapter add a Proxy-Authorization header for a proxy "
                      "URL with credentials?",
      evidence=['headers["Proxy-Authorization"] = _basic_auth_str(username, password)'],
      tags=["logic"]),
    # -- models.py -------------------------------------------------------------------
    Q(doc=M, question="How many redirects does requests follow at most by default?",
      evidence=["DEFAULT_REDIRECT_LIMIT: int = 30"], tags=["constant"]),
    Q(doc=M, question="Which status codes are treated as redirects that can be followed "
                      "automatically?",
      evidence=["#: The set of HTTP status codes that indicate an automatically\n"
                "#: processable redirect."],
      tags=["comment"]),
    Q(doc=M, question="Does Response.ok mean the status code is 200?", after="def ok(self)",
      evidence=["This attribute checks if the status code of the response is between\n"
                "        400 and 600 to see if there was a client error or a server error."],
      tags=["docstring"]),
    Q(doc=M, question="What message does raise_for_status give for a 404?",
      evidence=['f"{self.status_code} Client Error: {reason} for url: {self.url}"'],
      tags=["error"]),
    Q(doc=M, question="How is a response's encoding guessed when the server does not "
                      "declare one?",
      evidence=['"""The apparent encoding, provided by the charset_normalizer or chardet '
                'libraries."""'],
      tags=["docstring"]),
    Q(doc=M, question="What happens when the content of a response that was already "
                      "streamed is read?",
      evidence=['raise RuntimeError("The content for this response was already consumed")'],
      tags=["error"]),
    Q(doc=M, question="What Content-Type does a request get when the json argument is used?",
      evidence=['content_type = "application/json"'], tags=["logic"]),
    Q(doc=M, question="Can files be uploaded together with a streamed body?",
      evidence=['"Streamed bodies and files are mutually exclusive."'], tags=["error"]),
    Q(doc=M, question="What error message does requests give for a URL without a scheme?",
      evidence=['f"Perhaps you meant https://{url}?"'], tags=["error"]),
    Q(doc=M, question="How are internationalized domain names in URLs encoded?",
      evidence=['host = idna.encode(host, uts46=True).decode("utf-8")'], tags=["logic"]),
    Q(doc=M, question="How does Response.json pick a decoding when no encoding is set?",
      evidence=["# UTF-8, -16 or -32. Detect which one to use; If the detection or"],
      tags=["comment"]),
    Q(doc=M, question="What chunk size is used when reading the whole response content?",
      evidence=["CONTENT_CHUNK_SIZE: int = 10 * 1024"], tags=["constant"]),
    # -- utils.py --------------------------------------------------------------------
    Q(doc=U, question="Which netrc files does requests read credentials from?",
      evidence=['NETRC_FILES: Final = (".netrc", "_netrc")'], tags=["constant"]),
    Q(doc=U, question="Which environment variable sets the location of the netrc file?",
      evidence=['netrc_file = os.environ.get("NETRC")'], tags=["logic"]),
    Q(doc=U, question="Can NO_PROXY entries be CIDR network ranges?",
      evidence=["if is_valid_cidr(proxy_ip):\n"
                "                    if address_in_network(hostname, proxy_ip):"],
      tags=["logic"]),
    Q(doc=U, question="Are lowercase or uppercase proxy environment variables preferred?",
      evidence=["# Prioritize lowercase environment variables over uppercase"],
      tags=["comment"]),
    Q(doc=U, question="What encoding is assumed for a text response whose Content-Type has "
                      "no charset?",
      evidence=['if "text" in content_type:\n        return "ISO-8859-1"'], tags=["logic"]),
    Q(doc=U, question="What is the default User-Agent header?",
      evidence=['return f"{name}/{__version__}"'], tags=["logic"]),
    Q(doc=U, question="In what order are proxy keys tried when choosing a proxy for a URL?",
      evidence=['urlparts.scheme + "://" + urlparts.hostname,\n'
                "        urlparts.scheme,\n"
                '        "all://" + urlparts.hostname,\n'
                '        "all",'],
      tags=["logic"]),
    Q(doc=U, question="How is the encoding of a JSON body detected without a BOM?",
      evidence=["# JSON always starts with two ASCII characters, so detection is as\n"
                "    # easy as counting the nulls and from their location and count\n"
                "    # determine the encoding."],
      tags=["comment"]),
    Q(doc=U, question="What error is raised when a request body cannot be rewound for a "
                      "redirect?",
      evidence=['raise UnrewindableBodyError("Unable to rewind request body for redirect.")'],
      tags=["error"]),
    # -- auth.py ---------------------------------------------------------------------
    Q(doc=H, question="Which digest authentication algorithms are supported?",
      evidence=['elif _algorithm == "SHA-256":'], tags=["logic"]),
    Q(doc=H, question="How many times does digest authentication retry after a 401?",
      evidence=['if "digest" in s_auth.lower() and self._thread_local.num_401_calls < 2:'],
      tags=["logic"]),
    Q(doc=H, question="Does requests support the auth-int quality of protection in digest "
                      "auth?",
      evidence=["# XXX handle auth-int."], tags=["comment"]),
    Q(doc=H, question="How is the client nonce of digest authentication generated?",
      evidence=["cnonce = hashlib.sha1(s, usedforsecurity=False).hexdigest()[:16]"],
      tags=["logic"]),
    Q(doc=H, question="How are the username and password encoded in a Basic auth header?",
      evidence=['username = username.encode("latin1")'], tags=["logic"]),
    Q(doc=H, question="What happens when a non-string username is passed to basic auth?",
      evidence=['"Non-string usernames will no longer be supported in Requests "'],
      tags=["error"]),
]
