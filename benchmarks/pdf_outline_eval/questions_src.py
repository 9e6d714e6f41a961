"""The questions of the PDF outline set, written by hand against NIST SP 800-161
(2015) as the PDF reader extracts it. Each question's evidence is text exactly as
the reader extracts it (found once, or first after ``after``).

Most questions ask about one security control's supply-chain guidance by the
control's name, as a reader of the catalogue would; the guidance paragraph itself
rarely names the control, which only its heading does: tagged heading-dependent.
The others (prose) name what the paragraph says.
"""

TAGS = {"heading-dependent", "prose"}

Q = dict

D = "nist-sp-800-161.pdf"

QUESTIONS = [
    Q(doc=D, question="Where does NIST SP 800-161 send the reader for supply chain guidance "
                      "on continuous monitoring?",
      evidence=["For ICT SCRM-specific guidance on this control, see Chapter 2.2.4 of this "
                "publication."], tags=["heading-dependent"]),
    Q(doc=D, question="Under the external system services enhancement on consistent interests "
                      "of consumers and providers, who may count as a provider?",
      evidence=["“Providers” in the context of this enhancement may include system "
                "integrators, suppliers, and external service providers."],
      tags=["heading-dependent"]),
    Q(doc=D, question="What does associating identities for non-repudiation contribute to "
                      "supply chain risk management?",
      evidence=["This enhancement helps traceability in ICT supply chain. It also "
                "facilitates the accuracy of provenance."], tags=["heading-dependent"]),
    Q(doc=D, question="How does an alternate storage site help with supply chain risk?",
      evidence=["This enhancement helps resiliency of ICT supply chain infrastructure."],
      tags=["heading-dependent"]),
    Q(doc=D, question="How does capacity planning in the contingency plan help the ICT "
                      "supply chain?",
      evidence=["This enhancement helps availability of the ICT supply chain infrastructure "
                "or information system components."], tags=["heading-dependent"]),
    Q(doc=D, question="Why require signed components when restricting access for changes?",
      evidence=["This control aids in verifying that the acquired ICT components (hardware "
                "or software) are genuine and valid."], tags=["heading-dependent"]),
    Q(doc=D, question="What is the supply chain concern with non-organizationally owned "
                      "systems used as external information systems?",
      evidence=["Devices that do not belong to the organization increase the organization’s "
                "exposure to ICT supply chain risks."], tags=["heading-dependent"]),
    Q(doc=D, question="What does changing authenticators prior to delivery provide?",
      evidence=["This enhancement provides verification of chain of custody within the "
                "organization’s ICT supply chain infrastructure."], tags=["heading-dependent"]),
    Q(doc=D, question="What does cross-organization credential management facilitate in the "
                      "supply chain?",
      evidence=["This enhancement facilitates provenance and chain of custody within the "
                "organization’s ICT supply chain infrastructure."], tags=["heading-dependent"]),
    Q(doc=D, question="What does validating the binding of the information producer's "
                      "identity ensure?",
      evidence=["This enhancement validates the relationship of provenance and the "
                "component. Therefore, it ensures integrity of provenance."],
      tags=["heading-dependent"]),
    Q(doc=D, question="In a supply chain context, what does cross-organizational auditing "
                      "include?",
      evidence=["In an ICT SCRM context, this control includes the organization’s use of "
                "system integrator or external service provider infrastructure."],
      tags=["heading-dependent"]),
    Q(doc=D, question="How does account management help supply chain risk management?",
      evidence=["Use of this control helps in traceability of actions and actors in the ICT "
                "supply chain infrastructure."], tags=["heading-dependent"]),
    Q(doc=D, question="Why is blocking communication from non-organizationally configured "
                      "hosts at the boundary relevant to supply chain risk?",
      evidence=["This control is relevant to ICT SCRM as it applies to external service "
                "providers."], tags=["heading-dependent"]),
    Q(doc=D, question="What is the supply chain protection control (SA-12) focused on, "
                      "according to SP 800-161?",
      evidence=["This control is focused on ICT supply chain protection during acquisition."],
      tags=["heading-dependent"]),
    Q(doc=D, question="Why is the output of flaw remediation useful for supply chain risk "
                      "management?",
      evidence=["Output of flaw remediation activities provides useful input into ICT SCRM "
                "processes described in Chapter 2."], tags=["prose"]),
    Q(doc=D, question="What should an insider threat program consider?",
      evidence=["An insider threat program should include considerations for the ICT supply "
                "chain infrastructure."], tags=["prose"]),
]
