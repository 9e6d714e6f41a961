"""The questions of the held-out code set (JavaScript), written by hand against the
source files in docs/: Express 5.2.1's lib/ (application, request, response, utils,
view, express). Each question's evidence is text exactly as the code reader extracts
it (the file's own text), found once in its file (or first after ``after``).

Tags as in the code set: constant, logic, docstring, comment, error.
"""

TAGS = {"constant", "logic", "docstring", "comment", "error"}

Q = dict

APP = "application.js"
REQ = "request.js"
RES = "response.js"
UT = "utils.js"
V = "view.js"

QUESTIONS = [
    # -- application.js --------------------------------------------------------------
    Q(doc=APP, question="Which ETag mode does an Express app use by default?",
      evidence=["this.set('etag', 'weak');"], tags=["constant"]),
    Q(doc=APP, question="Which query string parser does Express use by default?",
      evidence=["this.set('query parser', 'simple')"], tags=["constant"]),
    Q(doc=APP, question="When is the view cache turned on automatically?",
      evidence=["if (env === 'production') {\n    this.enable('view cache');"],
      tags=["logic"]),
    Q(doc=APP, question="What is the default name of the JSONP callback query parameter?",
      evidence=["this.set('jsonp callback name', 'callback');"], tags=["constant"]),
    Q(doc=APP, question="What error does app.use throw when given no function?",
      evidence=["throw new TypeError('app.use() requires a middleware function')"],
      tags=["error"]),
    Q(doc=APP, question="What error message do you get when a view cannot be found?",
      evidence=["var err = new Error('Failed to lookup view \"' + name + '\" in views ' + dirs);"],
      tags=["error"]),
    Q(doc=APP, question="Which environment variable decides the app's env setting?",
      evidence=["var env = process.env.NODE_ENV || 'development';"], tags=["logic"]),
    Q(doc=APP, question="What does setting 'trust proxy' compile into?",
      evidence=["this.set('trust proxy fn', compileTrust(val));"], tags=["logic"]),
    # -- request.js ------------------------------------------------------------------
    Q(doc=REQ, question="How does req.get treat the Referer and Referrer headers?",
      evidence=["case 'referer':\n    case 'referrer':\n      return this.headers.referrer\n"
                "        || this.headers.referer;"],
      tags=["logic"]),
    Q(doc=REQ, question="How does req.protocol handle several values in X-Forwarded-Proto?",
      evidence=["// Note: X-Forwarded-Proto is normally only ever a\n"
                "  //       single value, but this is to be safe."],
      tags=["comment"]),
    Q(doc=REQ, question="When is the X-Forwarded-Host header used for req.host?",
      evidence=["if (!val || !trust(this.socket.remoteAddress, 0)) {\n    val = this.get('Host');"],
      tags=["logic"]),
    Q(doc=REQ, question="How many parts of the host are treated as the main domain when "
                        "computing subdomains?",
      evidence=["By default, the domain of the app is assumed to be the last two\n"
                " * parts of the host."],
      tags=["docstring"]),
    Q(doc=REQ, question="For which methods can a request be fresh?",
      evidence=["if ('GET' !== method && 'HEAD' !== method && 'QUERY' !== method) return false;"],
      tags=["logic"]),
    Q(doc=REQ, question="How does Express detect an XMLHttpRequest?",
      evidence=["return val.toLowerCase() === 'xmlhttprequest';"], tags=["logic"]),
    Q(doc=REQ, question="In what order does req.ips list the addresses?",
      evidence=["// reverse the order (to farthest -> closest)\n  // and remove socket address"],
      tags=["comment"]),
    Q(doc=REQ, question="How is an IPv6 literal host handled when taking req.hostname?",
      evidence=["// IPv6 literal support"], tags=["comment"]),
    # -- response.js -----------------------------------------------------------------
    Q(doc=RES, question="Which status codes does res.status accept?",
      evidence=["if (code < 100 || code > 999) {"], tags=["logic"]),
    Q(doc=RES, question="What Content-Type does res.send give a string body by default?",
      evidence=["this.type('html');"], tags=["logic"]),
    Q(doc=RES, question="When does res.send compute the length without converting the body "
                        "to a Buffer?",
      evidence=["} else if (!generateETag && chunk.length < 1000) {"], tags=["logic"]),
    Q(doc=RES, question="Which headers are removed for 204 and 304 responses?",
      evidence=["this.removeHeader('Content-Type');\n    this.removeHeader('Content-Length');\n"
                "    this.removeHeader('Transfer-Encoding');"],
      tags=["logic"]),
    Q(doc=RES, question="How does res.jsonp protect against Rosetta Flash JSONP abuse?",
      evidence=['// the /**/ is a specific security mitigation for "Rosetta Flash JSONP abuse"'],
      tags=["comment"]),
    Q(doc=RES, question="Which characters are allowed in a JSONP callback name?",
      evidence=["callback = callback.replace(/[^\\[\\]\\w$.]/g, '');"], tags=["logic"]),
    Q(doc=RES, question="What is the default status of res.redirect?",
      evidence=["var status = 302;"], tags=["constant"]),
    Q(doc=RES, question="What error is thrown when setting a signed cookie without a secret?",
      evidence=["throw new Error('cookieParser(\"secret\") required for signed cookies');"],
      tags=["error"]),
    Q(doc=RES, question="How is a cookie's maxAge option converted?",
      evidence=["opts.expires = new Date(Date.now() + maxAge)\n"
                "      opts.maxAge = Math.floor(maxAge / 1000)"],
      tags=["logic"]),
    Q(doc=RES, question="How does res.clearCookie expire a cookie?",
      evidence=["// Force cookie expiration by setting expires to the past"], tags=["comment"]),
    Q(doc=RES, question="How are object values stored in a cookie?",
      evidence=["? 'j:' + JSON.stringify(value)"], tags=["logic"]),
    Q(doc=RES, question="What does res.sendFile require of its path?",
      evidence=["throw new TypeError('path must be absolute or specify root to res.sendFile');"],
      tags=["error"]),
    # -- utils.js --------------------------------------------------------------------
    Q(doc=UT, question="Which values can the etag setting take?",
      evidence=["case 'strong':\n      fn = exports.etag;"], tags=["logic"]),
    Q(doc=UT, question="Which query parser is used when the query parser setting is "
                       "'extended'?",
      evidence=["case 'extended':\n      fn = parseExtendedQueryString;"], tags=["logic"]),
    # -- view.js ---------------------------------------------------------------------
    Q(doc=V, question="What error is thrown when rendering a view with no extension and no "
                      "default engine?",
      evidence=["throw new Error('No default engine was specified and no extension was "
                "provided.');"],
      tags=["error"]),
    Q(doc=V, question="How does Express load a template engine for a view's extension?",
      evidence=["var fn = require(mod).__express"], tags=["logic"]),
]
