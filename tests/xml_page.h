// Reads a page durprobe wrote as strict XML (libxml2, no network, no recovery) and answers XPath
// questions about it. Prefixes: h for XHTML, s for SVG. Where the test binary was built without
// libxml2, parsed() is false and skip_reason() says why: callers GTEST_SKIP with it.
#pragma once

#include <string>

#ifndef DURPROBE_HAVE_LIBXML2
#define DURPROBE_HAVE_LIBXML2 0
#endif
#if DURPROBE_HAVE_LIBXML2
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#endif

namespace durprobe::testing_support {

class XmlPage {
 public:
  explicit XmlPage(const std::string& text) {
#if DURPROBE_HAVE_LIBXML2
    doc_ = xmlReadMemory(text.data(), static_cast<int>(text.size()), "page.html", "UTF-8",
                         XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (doc_ == nullptr) {
      const xmlError* e = xmlGetLastError();
      error_ = e && e->message ? std::string("line ") + std::to_string(e->line) + ": " + e->message
                               : "unknown parse error";
      return;
    }
    xpath_ = xmlXPathNewContext(doc_);
    xmlXPathRegisterNs(xpath_, BAD_CAST "h", BAD_CAST "http://www.w3.org/1999/xhtml");
    xmlXPathRegisterNs(xpath_, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
#else
    (void)text;
#endif
  }
  ~XmlPage() {
#if DURPROBE_HAVE_LIBXML2
    if (xpath_) xmlXPathFreeContext(xpath_);
    if (doc_) xmlFreeDoc(doc_);
#endif
  }
  XmlPage(const XmlPage&) = delete;
  XmlPage& operator=(const XmlPage&) = delete;

  static bool available() { return DURPROBE_HAVE_LIBXML2 != 0; }
  static const char* skip_reason() { return "built without libxml2 (apt-get install libxml2-dev)"; }
  bool parsed() const { return parsed_ok(); }
  const std::string& error() const { return error_; }

  // The number of nodes the expression selects (-1 when it does not evaluate).
  int Count(const std::string& expr) const {
#if DURPROBE_HAVE_LIBXML2
    if (!xpath_) return -1;
    xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST expr.c_str(), xpath_);
    if (!r) return -1;
    int n = r->nodesetval ? r->nodesetval->nodeNr : 0;
    xmlXPathFreeObject(r);
    return n;
#else
    (void)expr;
    return -1;
#endif
  }

  // string(expr): the text of the first node selected, "" for none.
  std::string Text(const std::string& expr) const {
#if DURPROBE_HAVE_LIBXML2
    if (!xpath_) return "";
    xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST("string(" + expr + ")").c_str(), xpath_);
    if (!r) return "";
    std::string s = r->stringval ? reinterpret_cast<const char*>(r->stringval) : "";
    xmlXPathFreeObject(r);
    return s;
#else
    (void)expr;
    return "";
#endif
  }

 private:
#if DURPROBE_HAVE_LIBXML2
  bool parsed_ok() const { return doc_ != nullptr; }
  xmlDocPtr doc_ = nullptr;
  xmlXPathContextPtr xpath_ = nullptr;
#else
  bool parsed_ok() const { return false; }
#endif
  std::string error_ = "built without libxml2";
};

}  // namespace durprobe::testing_support
