"""The questions of the transcript set, written by hand against docs/: the
air-to-ground transcript of Mercury-Atlas 6 (John Glenn, Friendship 7, 1962) as
WebVTT (see README.md). Each question's evidence is a cue's text exactly as it
stands in the file, found once (or first after ``after``).

Tags: report (a reading the pilot or a station gave: fuel, oxygen, pressure,
temperatures, blood pressure), event (something that happened, said by whoever saw
it), instruction (what the ground told the pilot to do), observation (what the pilot
saw or felt).
"""

TAGS = {"report", "event", "instruction", "observation"}

Q = dict

F = "mercury-atlas-6.vtt"

QUESTIONS = [
    Q(doc=F, question="What did Glenn say about the sky shortly after launch?",
      evidence=["Sky looking very dark outside."], tags=["observation"]),
    Q(doc=F, question="What did Glenn see when the escape tower was jettisoned?",
      evidence=["There the tower went right then. Have the tower in sight way out. Could see "
                "the tower go. Jettison tower is green."], tags=["event"]),
    Q(doc=F, question="How far behind the capsule was the booster during turnaround?",
      evidence=["The capsule is turning around and I can see the booster during turnaround "
                "just a couple of hundred yards behind me."], tags=["observation"]),
    Q(doc=F, question="What apogee altitude did the ground give Glenn after orbit insertion?",
      evidence=["your apogee altitude is 138 [nautical miles]"], tags=["report"]),
    Q(doc=F, question="How did the control systems check compare with the Procedures "
                      "Trainer?",
      evidence=["Working just like clockwork on the control check, and it went through just "
                "about like the Procedures Trainer runs."], tags=["observation"]),
    Q(doc=F, question="What did Glenn see over the African desert?",
      evidence=["I can see dust storms down there blowing across the desert, a lot of dust; "
                "it's difficult to see the ground in some areas."], tags=["observation"]),
    Q(doc=F, question="How fast was the capsule drifting in yaw on fly-by-wire over Africa?",
      evidence=["Drift is coming around at about 1° per second, and holding attitude okay in "
                "other axes."], tags=["report"]),
    Q(doc=F, question="What did the Indian Ocean Ship decide about the balloon flare?",
      evidence=["Message from IOS Cap Com, that he will not release balloon flare this "
                "orbit. Will fire parachute flares instead."], tags=["instruction"]),
    Q(doc=F, question="What was Glenn's blood pressure before exercise, according to the "
                      "Zanzibar surgeon?",
      evidence=["Your blood pressure was 136 over 80 before exercise."], tags=["report"]),
    Q(doc=F, question="Did head movements make Glenn feel sick during the first orbit?",
      evidence=["The head movements caused no sensations, whatsoever. Feel fine."],
      tags=["observation"]),
    Q(doc=F, question="What were the inverter temperatures Zanzibar read out on the first "
                      "orbit?",
      evidence=["Roger, your inverter temperatures 150 volt inverter is 188°, 250 volt "
                "inverter, 158°."], tags=["report"]),
    Q(doc=F, question="How did Glenn describe the first sunset he saw from orbit?",
      evidence=["I still have a brilliant blue band clear across the horizon almost covering "
                "my whole window."], tags=["observation"]),
    Q(doc=F, question="What retrosequence time did the ground give for Area Hotel?",
      evidence=["Area Hotel is four hours, 32 minutes, 42 seconds."], tags=["report"]),
    Q(doc=F, question="Could Glenn see the flare the Indian Ocean Ship launched?",
      evidence=["Negative. I don't have anything in the scope or out the window."],
      after="we have launched our flare", tags=["event"]),
    Q(doc=F, question="What haze did Glenn notice above the horizon on the night side?",
      evidence=["a rather high, what would appear to be a haze layer up some 7 or 8 degrees "
                "above the horizon on the night side."], tags=["observation"]),
    Q(doc=F, question="How accurate was the velocity at engine cutoff?",
      evidence=["You had an excellent cutoff, John. Your velocity was 8 feet per second low."],
      tags=["report"]),
    Q(doc=F, question="Which stars did Glenn have in sight over Australia?",
      evidence=["I have the Pleiades in sight out here, very clear."], tags=["observation"]),
    Q(doc=F, question="What did Glenn say about the city lights on the Australian coast?",
      evidence=["The lights show up very well and thank everybody for turning them on, will "
                "you?"], tags=["observation"]),
    Q(doc=F, question="Why could Glenn not see the Woomera lights?",
      evidence=["Negative, I do not; there's too much cloud cover in this area."],
      tags=["observation"]),
    Q(doc=F, question="What did Glenn see in a storm to the south over the Pacific?",
      evidence=["had lightning flashes going around on top of the clouds."],
      tags=["observation"]),
    Q(doc=F, question="Did Glenn have trouble eating in weightlessness?",
      evidence=["Have eaten one tube of food, shutting the visor. I've had no problem at all "
                "eating."], tags=["observation"]),
    Q(doc=F, question="How did Glenn first describe the luminous particles around the "
                      "capsule?",
      evidence=["I am in a big mass of some very small particles, that are brilliantly lit up "
                "like they're luminescent. I never saw anything like it."],
      tags=["observation"]),
    Q(doc=F, question="How fast were the particles moving relative to the capsule?",
      evidence=["They're very slow; they're not going away from me more than maybe 3 or 4 "
                "miles per hour."], tags=["observation"]),
    Q(doc=F, question="What did the Canary Islands station ask Glenn to do about the "
                      "particles?",
      evidence=["I am instructed to ask you to correlate the actions of the particles "
                "surrounding your spacecraft with the actions of your control jets."],
      tags=["instruction"]),
    Q(doc=F, question="Which yaw thrusters failed during the second orbit?",
      evidence=["At one time, I had no left low thrust in yaw, now that one is working, and I "
                "now have no low right thrust in yaw."], tags=["event"]),
    Q(doc=F, question="Why did Glenn switch to manual control when his automatic fuel ran "
                      "low?",
      evidence=["I'm down to 60 [percent] on automatic fuel, so I cut it off and I'm on manual "
                "at present time."], tags=["event"]),
    Q(doc=F, question="How far off in roll were the attitude indications over Hawaii?",
      evidence=["At present time, I am indicating 20° right roll when I am lined up "
                "perfectly with the horizon."], tags=["report"]),
    Q(doc=F, question="What did Glenn say is the best way to judge drift?",
      evidence=["Your best drift really is to look out the window and try and get something "
                "moving away from you out the window."], tags=["observation"]),
    Q(doc=F, question="What could Glenn see of the Cape and the Mississippi on the third "
                      "orbit?",
      evidence=["Even from this position out here, I can still see clear back to the "
                "Mississippi Delta."], tags=["observation"]),
    Q(doc=F, question="What signal made the ground suspect the landing bag had deployed?",
      evidence=["we have been reading an indication on the ground of segment 51, which is "
                "Landing Bag Deploy."], tags=["event"]),
    Q(doc=F, question="What did Texas recommend doing with the retropackage during "
                      "reentry?",
      evidence=["We are recommending that you leave the retropackage on through the entire "
                "reentry."], tags=["instruction"]),
    Q(doc=F, question="At what altitude did the main parachute come out, and how fast did "
                      "the capsule descend?",
      evidence=["Chute is out, in reef condition at 10,800 feet and beautiful chute."],
      tags=["event"]),
    Q(doc=F, question="How did Glenn feel in the capsule after splashdown?",
      evidence=["I'm extremely warm at the moment."], tags=["observation"]),
]
