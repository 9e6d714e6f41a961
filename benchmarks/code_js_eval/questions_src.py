"""The questions of the JavaScript code set, written by hand against docs/: send 1.2.1
(``index.js`` as ``send.js``), express-session 1.19.0 (``index.js`` as
``session.js`` and ``session/*.js`` as ``session-*.js``) and morgan 1.10.1
(``index.js`` as ``morgan.js``). Each question's evidence is text exactly as the code
reader extracts it (the file's own text), found once in its file (or first after
``after``).

Tags as in the code set: constant, logic, docstring, comment, error.
"""

TAGS = {"constant", "logic", "docstring", "comment", "error"}

Q = dict

S = "send.js"
E = "session.js"
M = "morgan.js"

QUESTIONS = [
    # -- send ------------------------------------------------------------------------
    Q(doc=S, question="What is the longest max-age send allows in Cache-Control?",
      evidence=["var MAX_MAXAGE = 60 * 60 * 24 * 365 * 1000 // 1 year"], tags=["constant"]),
    Q(doc=S, question="Which values may the dotfiles option of send take?",
      evidence=["throw new TypeError('dotfiles option must be \"allow\", \"deny\", or "
                "\"ignore\"')"], tags=["error"]),
    Q(doc=S, question="Which file does send serve for a directory by default?",
      evidence=[": ['index.html']"], tags=["constant"]),
    Q(doc=S, question="How does send recognise a path that climbs out of the root?",
      evidence=["var UP_PATH_REGEXP = /(?:^|[\\\\/])\\.\\.(?:[\\\\/]|$)/"], tags=["constant"]),
    Q(doc=S, question="What does send do with a path that contains a null byte?",
      evidence=["// null byte(s)\n  if (~path.indexOf('\\0')) {\n    this.error(400)"],
      tags=["logic"]),
    Q(doc=S, question="What status does send answer for a dotfile when dotfiles are "
                      "ignored?",
      evidence=["case 'ignore':\n      default:\n        this.error(404)"], tags=["logic"]),
    Q(doc=S, question="What does send answer when the requested byte range cannot be "
                      "satisfied?",
      evidence=["// 416 Requested Range Not Satisfiable"], tags=["comment"]),
    Q(doc=S, question="How is the Cache-Control header value built from maxAge?",
      evidence=["var cacheControl = 'public, max-age=' + Math.floor(this._maxage / 1000)"],
      tags=["logic"]),
    Q(doc=S, question="When does send add immutable to Cache-Control?",
      evidence=["if (this._immutable) {\n      cacheControl += ', immutable'"], tags=["logic"]),
    Q(doc=S, question="What status does send use when a conditional request's precondition "
                      "fails?",
      evidence=["if (this.isPreconditionFailure()) {\n      this.error(412)"], tags=["logic"]),
    Q(doc=S, question="How does send treat a request for several byte ranges?",
      evidence=["// valid (syntactically invalid/multiple ranges are treated as a regular "
                "response)"], tags=["comment"]),
    Q(doc=S, question="Which headers does send set before streaming a file?",
      evidence=["res.setHeader('Accept-Ranges', 'bytes')"], tags=["logic"]),
    Q(doc=S, question="Does send answer HEAD requests with a body?",
      evidence=["if (req.method === 'HEAD') {\n    res.end()"], tags=["logic"]),
    # -- express-session -------------------------------------------------------------
    Q(doc=E, question="What is the default name of the session cookie?",
      evidence=["var name = opts.name || opts.key || 'connect.sid'"], tags=["constant"]),
    Q(doc=E, question="What happens when the resave option is not given?",
      evidence=["deprecate('undefined resave option; provide resave option');\n"
                "    resaveSession = true;"], tags=["logic"]),
    Q(doc=E, question="Which values may the unset option of express-session take?",
      evidence=["throw new TypeError('unset option must be \"destroy\" or \"keep\"');"],
      tags=["error"]),
    Q(doc=E, question="What error is thrown for an empty array of secrets?",
      evidence=["throw new TypeError('secret option array must contain one or more "
                "strings');"], tags=["error"]),
    Q(doc=E, question="What does express-session warn about MemoryStore in production?",
      evidence=["var warning = 'Warning: connect.session() MemoryStore is not\\n'"],
      tags=["constant"]),
    Q(doc=E, question="How long are generated session ids?",
      evidence=["function generateSessionId() {\n  return uid(24);"], tags=["logic"]),
    Q(doc=E, question="How is the session cookie value signed?",
      evidence=["var signed = 's:' + signature.sign(val, secret);"], tags=["logic"]),
    Q(doc=E, question="How does express-session decide whether a request came over "
                      "HTTPS behind a trusted proxy?",
      evidence=["// read the proto from x-forwarded-proto header"], tags=["comment"]),
    Q(doc="session-memory.js", question="How does MemoryStore keep sessions?",
      evidence=["this.sessions[sessionId] = JSON.stringify(currentSession)"],
      tags=["logic"]),
    Q(doc="session-store.js", question="How does a session store regenerate a session?",
      evidence=["this.destroy(req.sessionID, function(err){\n    self.generate(req);"],
      tags=["logic"]),
    Q(doc="session-cookie.js", question="What does setting a session cookie's expires "
                                        "date also reset?",
      evidence=["this._expires = date;\n    this.originalMaxAge = this.maxAge;"],
      tags=["logic"]),
    # -- morgan ----------------------------------------------------------------------
    Q(doc=M, question="What does morgan's combined log format contain?",
      evidence=["morgan.format('combined', ':remote-addr - :remote-user [:date[clf]] "
                "\":method :url HTTP/:http-version\" :status :res[content-length] "
                "\":referrer\" \":user-agent\"')"], tags=["constant"]),
    Q(doc=M, question="What is morgan's tiny format?",
      evidence=["morgan.format('tiny', ':method :url :status :res[content-length] - "
                ":response-time ms')"], tags=["constant"]),
    Q(doc=M, question="Which colours does the dev format give status codes?",
      evidence=["var color = status >= 500 ? 31 // red"], tags=["logic"]),
    Q(doc=M, question="How does morgan compute the response time?",
      evidence=["var ms = (res._startAt[0] - req._startAt[0]) * 1e3 +"], tags=["logic"]),
    Q(doc=M, question="Which URL does morgan log for a request?",
      evidence=["return req.originalUrl || req.url"], tags=["logic"]),
    Q(doc=M, question="How does morgan buffer log lines before writing them?",
      evidence=["timer = setTimeout(flush, interval)"], tags=["logic"]),
    Q(doc=M, question="Where does morgan take the remote address from?",
      evidence=["return req.ip ||\n    req._remoteAddress ||"], tags=["logic"]),
]
