"""The questions of the held-out transcript set, written by hand against docs/: the
air-to-ground transcript of Mercury-Atlas 7 (Scott Carpenter, Aurora 7, 1962) as
WebVTT, made the same way as the transcript set's (see README.md). Each question's
evidence is a cue's text exactly as it stands in the file, found once.

Tags as in the transcript set: report, event, instruction, observation.
"""

TAGS = {"report", "event", "instruction", "observation"}

Q = dict

F = "mercury-atlas-7.vtt"

QUESTIONS = [
    Q(doc=F, question="What cabin pressure did Carpenter report three minutes after launch?",
      evidence=["At 3 minutes. Fuel and oxygen are still steady; cabin is holding 5.8 [psia]."],
      tags=["report"]),
    Q(doc=F, question="How was the booster moving when Carpenter first saw it after "
                      "turnaround?",
      evidence=["I have the booster in the center of the window now, tumbling very slowly."],
      tags=["observation"]),
    Q(doc=F, question="What cloud patterns did Carpenter see west of the Canary station?",
      evidence=["I have, west of your station, many whirls and vortices of cloud patterns."],
      tags=["observation"]),
    Q(doc=F, question="Why was Carpenter behind the flight plan early in the first orbit?",
      evidence=["I have been unable at this time to install the MIT film."], tags=["event"]),
    Q(doc=F, question="How wide did the horizon band look at sunset?",
      evidence=["It looks like five times the width of the--the diameter of the sun."],
      tags=["observation"]),
    Q(doc=F, question="At what yaw and pitch was Carpenter told to look for the first "
                      "flare?",
      evidence=["It would be plus 80 [degrees] yaw, minus 80 [degrees] in pitch."],
      tags=["instruction"]),
    Q(doc=F, question="When were the four flares over Australia fired?",
      evidence=["Mark 00 [plus] 58 plus 30. All four flares away."], tags=["event"]),
    Q(doc=F, question="Why could Carpenter not read his star chart?",
      evidence=["The finish on the star chart is so shiny that--it's impossible to read because "
                "of reflection."], tags=["observation"]),
    Q(doc=F, question="What was the problem with the in-flight food?",
      evidence=["It's crumbling badly and I hate to get it all over"], tags=["observation"]),
    Q(doc=F, question="What did the particles Carpenter saw look like during the first "
                      "orbit?",
      evidence=["Almost like a light snowflake particle caught in an eddy."],
      tags=["observation"]),
    Q(doc=F, question="What did the ground say about Carpenter's fuel usage over the Cape?",
      evidence=["Everything looks good down here, except for your fuel usage; you better watch "
                "that a little bit."], tags=["instruction"]),
    Q(doc=F, question="How did the tethered balloon behave after it was deployed?",
      evidence=["the balloon not only oscillates in cones in pitch and yaw, it also seems to "
                "oscillate in and out toward the capsule"], tags=["observation"]),
    Q(doc=F, question="Did Carpenter see the separated haze layers John Glenn reported?",
      evidence=["I did observe haze layers but not the ones that were separated from the "
                "horizon that we expected, and that John reported."], tags=["observation"]),
    Q(doc=F, question="What body temperature were the stations reading for Carpenter?",
      evidence=["We are reading 102 [degrees] right now, but as long as you feel okay right "
                "now."], tags=["report"]),
    Q(doc=F, question="Why did Carpenter not want to exercise on the second orbit?",
      evidence=["I really don't feel I need the exercise. I would get too warm."],
      tags=["event"]),
    Q(doc=F, question="What did the Cape say would happen if Carpenter did not stay on "
                      "manual control?",
      evidence=["Cape informs that if we don't stay on manual for quite a spell here we'll "
                "probably have to end this orbit."], tags=["instruction"]),
    Q(doc=F, question="Why did Carpenter cage the gyros on the dark side?",
      evidence=["I caged the gyros. They are too critical."], tags=["event"]),
    Q(doc=F, question="How had the cabin pressure changed since launch?",
      evidence=["It's gone from 5.8 [psia] at launch to approximately 5.1 [psia] in very, very "
                "gradual descending trend."], tags=["report"]),
    Q(doc=F, question="What did Flight Director Kraft advise about automatic fuel before "
                      "retrosequence?",
      evidence=["Use as little auto; use no auto fuel unless you have to prior to retrosequence "
                "time."], tags=["instruction"]),
    Q(doc=F, question="How far out could Carpenter see the particles on the third orbit?",
      evidence=["I can see some that are a 100 feet out."], tags=["observation"]),
    Q(doc=F, question="What weather did Carpenter think he was crossing over the Atlantic?",
      evidence=["This must be crossing [Intertropical Convergence Zone] (ITCZ)."],
      tags=["observation"]),
    Q(doc=F, question="How did Carpenter compare the feeling of orientation in orbit to "
                      "aerobatic maneuvers?",
      evidence=["but that's sorta the way you feel when you come out of split S, or out of an "
                "Immelmann."], tags=["observation"]),
    Q(doc=F, question="At what magnitude did the star Phecda go extinct in the haze layer?",
      evidence=["It occludes--it is extinct at roughly 2.5."], tags=["report"]),
    Q(doc=F, question="What did Carpenter find out about the fireflies at sunrise?",
      evidence=["They are capsule emanating."], tags=["observation"]),
    Q(doc=F, question="What happened when the retrorockets fired?",
      evidence=["Okay. Fire 1, fire 2, and fire 3. I had to punch off manually. I have a little "
                "bit of smoke in the capsule."], tags=["event"]),
    Q(doc=F, question="What weather was reported in the recovery area?",
      evidence=["You've got overcast cloud; 3-foot waves; 8 knots of wind; 10 miles "
                "visibility; and the cloud bases are at 1,000 feet."], tags=["report"]),
    Q(doc=F, question="How far from the planned point did Aurora 7 land?",
      evidence=["Your landing point is 200 miles long."], tags=["report"]),
]
