"""Phrase bank 'chatty': a warm, talkative user with regional English (Irish, British, Australian and Indian
idioms) who wraps the point in asides, says "we" for shared jobs and often means more than she says. Written from
the generator README and the dev bank only. Placeholders as in dev: {v}/{old} slot values, {topic}, thread
entities, {me}, {n}/{n2}/{big}/{few}, {day}, {due}, {stranger}/{org}."""

NAME = "chatty"

USERS = ["Siobhan Gallagher", "Ravi Iyer", "Bronwyn Taylor", "Declan Moriarty", "Meenakshi Rao", "Gareth Pryce",
         "Sheila Dunne", "Kiran Deshpande", "Maeve Costello", "Trent Wilkinson", "Nirmala Pillai",
         "Rhys Llewellyn", "Deirdre Hanlon", "Aarav Kulkarni", "Shannon Brereton", "Fergal Quinn"]

PEOPLE = ["Aoife", "Padraig", "Niamh", "Ciaran", "Sorcha", "Cathal", "Grainne", "Diarmuid", "Roisin", "Fachtna",
          "Bridie", "Jarrod", "Shazia", "Harpreet", "Balaji", "Nandini", "Revathi", "Sunita", "Bazza", "Darcy",
          "Jarrah", "Mick", "Noeleen", "Dympna", "Fionnuala", "Oisin", "Colm", "Ailbhe", "Manpreet", "Chitra",
          "Venkat", "Gurdeep", "Dougal", "Ishbel", "Euan", "Isla", "Tamsin", "Bernadette", "Gopal", "Kath"]
STRANGERS = ["Mrs. Fennelly", "Father Keogh", "Dr. Subramanian", "Councillor Brophy", "Mr. Tierney",
             "Sergeant Healy", "Mrs. Banerjee", "Mr. McGillicuddy", "Dr. Harland", "Bev Mortimer",
             "Col Pritchard", "Nurse Ahern"]
ORGS = ["Ballyduff Credit Union", "Kerrigan's Hardware", "Tamworth Water", "Shannonside Gas", "Bharat Telecom",
        "Wollongong Motors", "Coastline Broadband", "Mullingar Library", "Dunmore Mutual"]

# lambing
RAMBREEDS = ["Texel", "Suffolk", "Charollais", "Beltex", "Bluefaced Leicester", "Dorset Down"]
SHEARERS = ["Doyle Shearing", "Kavanagh Fleece Co", "Ridge Run Shearers", "Galtee Clippers", "Murrumbidgee Blades"]
VETPRACS = ["Slaney Vets", "Hillside Veterinary", "Carrowmore Animal Clinic", "Blackstairs Vets", "Ardfert Vet Practice"]
# theatre
SHOWS = ["Blithe Spirit", "Calendar Girls", "Arsenic and Old Lace", "Noises Off", "The Playboy of the Western World",
         "Lady Windermere's Fan"]
HALLS = ["St Brendan's Parish Hall", "the Mechanics Institute", "Kilbride Community Centre", "the Scout Hut",
         "Lyric Rooms", "the Old Courthouse Theatre"]
# school reports
CLASSES = ["Willow class", "Sycamore class", "Fifth Class", "the Badgers", "Chestnut class"]
OUTINGS = ["Fota Wildlife Park", "the Ulster Folk Museum", "Tayto Park", "the Eden Project", "Ironbridge Gorge",
           "Newgrange"]
# wedding
RECEPTIONS = ["the Boathouse at Lough Ree", "Mulberry Barn", "Kinsale Yacht Club", "the Dhaba Courtyard",
              "Hollybrook Orchard", "the Rugby Club function room"]
CATERERS = ["Spice Route Kitchen", "Nanna's Pantry", "Hog Roast Hughie", "Curry Leaf Catering", "Wild Garlic Events"]
# podcast
PODCASTS = ["Tea and Tangents", "Small Town Big Talk", "Outback Oddities", "Chai With Strangers", "Parish Notices"]
PODHOSTS = ["Wavecast", "Podnest", "Echoburrow", "Castkettle", "Airline Audio"]
MICS = ["Rode Podmic", "Blue Yeti", "Rode Procaster", "Electro-Voice RE20", "Samson Q2U"]
# move abroad
DESTINATIONS = ["Perth", "Bengaluru", "Auckland", "Brisbane", "Pune", "Wellington"]
REMOVALISTS = ["Seven Seas Relocations", "Kangaroo Movers", "Anchor International Removals", "Shamrock Shipping",
               "Lotus Packers and Movers"]
# fete
PRIZES = ["a hamper from the butcher's", "a weekend in a Dingle cottage", "a signed hurley", "a mountain bike",
          "a year of free haircuts"]
FIELDS = ["Mulcahy's Field", "the GAA grounds", "the rectory lawn", "the showgrounds", "Hannigan's paddock"]

HOMETOWNS = ["Ballina", "Toowoomba", "Mysuru", "Tralee", "Ballarat", "Kilkenny"]
JOBS = ["the hospice in town", "the county council", "a call centre", "the credit union", "the post office"]
DOGS = ["Skipper", "Bramble", "Ruffles", "Dingo", "Toffee"]

PERSONAL_ENTS = dict(hubby="PEOPLE", sis="PEOPLE", town="HOMETOWNS", work="JOBS", dog="DOGS")

THREADS = [
    dict(
        name="lambing season", short=["lambing", "the ewes", "the lambing shed", "the flock"],
        ents=dict(farmhand="PEOPLE", vet="PEOPLE", neighbour="PEOPLE", sheepman="PEOPLE"),
        slots=[
            dict(id="lambing_kickoff", kind="date", type="plan", topic="the lambing start",
                 q=["When do the ewes start lambing?", "What date is lambing due to kick off?"],
                 say=["going by the raddle marks, first lambs should drop around {v}",
                      "we reckon lambing kicks off {v}, give or take",
                      "{v} is when the first of them are due, so the shed needs to be ready before that",
                      "the vet had a look and says {v} for the first lambs"]),
            dict(id="ewes_in_lamb", kind="number", num=(60, 420), fmt=["{} ewes", "{} in-lamb ewes"],
                 type="knowledge", topic="the number of ewes in lamb",
                 q=["How many ewes are in lamb this year?", "How many ewes are we lambing?"],
                 say=["the scanner man was out and we've {v} carrying",
                      "we're lambing {v} this year, which is plenty for two pairs of hands",
                      "counted them through the race, {v} in lamb"]),
            dict(id="shearing_crew", kind="name", pool="SHEARERS", type="decision", topic="the shearing crew",
                 q=["Who's doing the shearing this year?", "Which shearing crew did we go with?"],
                 say=["we're giving the shearing to {v} this year, the last lot were rough on the ewes",
                      "{v} will do the shearing, they're dear but they're quick",
                      "shearing's going to {v}"]),
            dict(id="ram_breed", kind="thing", pool="RAMBREEDS", type="decision", topic="the ram breed",
                 q=["What breed of ram are we leasing?", "Which breed is the new ram?"],
                 say=["we've gone for a {v} tup for next season, meatier lambs",
                      "the ram we're leasing is a {v}, lovely big lad",
                      "after a lot of back and forth it's a {v} ram"]),
            dict(id="vet_practice", kind="name", pool="VETPRACS", type="relationship", topic="our vet practice",
                 q=["Which vet practice covers the farm now?", "Who are our vets for the flock?"],
                 say=["we've moved the farm over to {v}, they do out-of-hours",
                      "{v} are looking after the flock now",
                      "our vets are {v} since the old fella retired"]),
        ],
        facts=[("relationship", "{farmhand} is coming in to do the night checks with me, God bless"),
               ("decision", "we're keeping the triplets in the shed a week longer this time, lost too many last year"),
               ("event", "had a ewe prolapse on {day}, {vet} came out and stitched her, she's grand now"),
               ("knowledge", "colostrum has to be into them within the first few hours or you're in trouble"),
               ("plan", "the hoggets are going out to {neighbour}'s ground for the spring"),
               ("preference", "I'd rather tube a weak lamb myself than wait on anyone"),
               ("relationship", "{sheepman} down the road lends us his lamb adopter in return for silage"),
               ("decision", "no more pet lambs in the kitchen, the kids were heartbroken last time"),
               ("knowledge", "the ewes get twin-lamb disease if you let them go short on feed at the end")],
        loops=[dict(acts=["book the shearers", "get onto the shearers about dates"],
                    opens=["I'd best get onto the shearers before they're booked out",
                           "nobody's rung the shearers yet, and it won't be {farmhand} who does it"],
                    done=["the shearers are booked in for after the lambs are weaned",
                          "shearers have us pencilled in, so that's one less headache",
                          "the crew's coming the week the lambs go out, all arranged"]),
               dict(acts=["sort out the ram lease", "get the ram lease papers signed"],
                    opens=["that's one for me, the ram lease",
                           "the ram lease is sitting in the kitchen drawer waiting on my signature"],
                    done=["the ram lease is signed and back with the breeder",
                          "the tup is ours till the autumn now, paperwork and all",
                          "the breeder has his copy of the lease and we have ours"]),
               dict(acts=["order more lamb colostrum", "stock up on colostrum before the rush"],
                    opens=["we're down to the last tub of colostrum and that won't last the weekend"],
                    done=["there's a shelf full of colostrum in the shed now",
                          "colostrum came in on {day}, we're well stocked"]),
               dict(acts=["ring {vet} about the vaccines", "give {vet} a bell about the clostridial jabs"],
                    opens=["still no word back from {vet} on the jabs"],
                    done=["{vet} rang back, the ewes are done on {day}",
                          "the jabs are in the ewes, {vet} was out yesterday"])],
        asks=[("how do you tell if a newborn lamb isn't getting enough milk?",
               "A hungry lamb stands hunched with a flat, empty belly and keeps butting the ewe; a full one has a "
               "round tummy and mostly sleeps. Lift it and feel the stomach if in doubt."),
              ("am I mad to be this wrecked halfway through lambing, or is everyone?",
               "Completely normal - broken sleep for weeks wears anyone down. Even swapping a couple of night "
               "checks with someone can make a real difference."),
              ("the shed smells like iodine and despair at this stage", "Ha, that sounds about right for this "
               "time of year. Hopefully the worst of it is nearly behind you.")],
        maybe=["if the weather turns we'd have to bring the whole lot back inside, please God it doesn't",
               "one of these years I'll keep proper records of which ewe had what, but not this year",
               "what's the name of that spray for navels, the purple one?"],
    ),
    dict(
        name="amateur theatre production", short=["the play", "the production", "{show}", "rehearsals"],
        ents=dict(show="SHOWS", director="PEOPLE", costume="PEOPLE", treasurer="PEOPLE", printer="PEOPLE"),
        slots=[
            dict(id="opening_night", kind="date", type="plan", topic="opening night",
                 q=["When is opening night for {show}?", "What night does {show} open?"],
                 say=["curtain goes up on {v}, God help us",
                      "opening night's {v}, and half the cast still can't remember their blocking",
                      "we open {show} on {v}"]),
            dict(id="playhouse", kind="place", pool="HALLS", type="plan", topic="the performance venue",
                 q=["Where are we putting on {show}?", "Which hall is {show} in?"],
                 say=["we've got {v} for the run, the stage is tiny but sure look",
                      "{show} is going on in {v}",
                      "the committee settled on {v} for the performances"]),
            dict(id="ticket_cost", kind="number", num=(10, 28), fmt=["£{}", "{} quid"], type="decision",
                 topic="the price of a ticket", q=["How much are tickets for {show}?", "What are we charging at the door?"],
                 say=["tickets are {v}, concessions a bit less",
                      "we're charging {v} a head at the door",
                      "{treasurer} did the sums and we landed on {v}, door or online"]),
            dict(id="leading_actor", kind="name", pool="PEOPLE", type="relationship", topic="the lead",
                 q=["Who's playing the lead in {show}?", "Who got the lead part?"],
                 say=["{v} got the lead, and fair play, the audition was something else",
                      "the lead's gone to {v}",
                      "{v} is playing the lead, which I'm thrilled about"]),
            dict(id="cast_count", kind="number", num=(12, 38), fmt=["{} in the cast", "{} cast members"],
                 type="knowledge", topic="the cast size",
                 q=["How many are in the cast of {show}?", "How big is the cast?"],
                 say=["with the chorus we've {v} now", "we're up to {v}, which is a lot of costumes",
                      "all told it's {v}"]),
        ],
        facts=[("relationship", "{director} is directing, and does not suffer fools gladly"),
               ("decision", "we've cut the second interval, the hall can't keep the tea going that long"),
               ("event", "the dress rehearsal on {day} was a disaster, which apparently means opening night will be grand"),
               ("relationship", "{costume} is doing the costumes out of the front room at home"),
               ("knowledge", "the hall insurance only covers us if there's a first-aider on every night"),
               ("preference", "I'd much rather be backstage than out front selling raffle tickets"),
               ("plan", "we'll do a matinee for the nursing home the Sunday after we open"),
               ("decision", "the programme is going to be a single folded sheet this time, money's tight")],
        loops=[dict(acts=["chase the printers about the posters", "get the posters back from the printers"],
                    opens=["must remember to chase the printers", "the posters are still at {printer}'s and it's getting late"],
                    done=["the posters came back from the printers looking grand",
                          "posters are up in every shop window in town now",
                          "{printer} dropped the posters round on {day}, they're gorgeous"]),
               dict(acts=["follow up with {costume} on the costumes", "check in with {costume} about the costume fittings"],
                    opens=["{costume} has gone very quiet about the costumes",
                           "not a word from the costume lady since the read-through"],
                    done=["{costume} has everyone fitted now bar the butler",
                          "costumes are hanging on the rail backstage, labelled and all"]),
               dict(acts=["sort the hall booking for tech week", "book the hall for the extra rehearsals"],
                    opens=["I'll sort the hall booking, nobody else will",
                           "we've nowhere to rehearse tech week yet"],
                    done=["we have the hall every night of tech week",
                          "hall's ours from the Monday, keys collected"]),
               dict(acts=["get the ticket float from {treasurer}", "collect the cash float off {treasurer}"],
                    opens=["{treasurer} still has the float, and we open with an empty till otherwise"],
                    done=["the float is in the biscuit tin in the box office",
                          "box office is stocked with change now, thanks to {treasurer}",
                          "{treasurer} handed over the float, counted twice"])],
        asks=[("any tricks for helping actors who keep drying on their lines?",
               "Have them run lines while doing something physical, like walking the blocking or folding washing, "
               "and drill the cue lines rather than just their own."),
              ("how do you keep a cast of volunteers turning up to rehearsals?",
               "Publish the schedule well ahead, only call people for the scenes they're in, and keep tea and "
               "biscuits flowing - people come back where they feel wanted."),
              ("I've had the overture stuck in my head for a week", "That's the price of a good show. Hopefully "
               "it's a tune you like!")],
        maybe=["if we'd the money we'd hire a proper lighting rig, but we haven't",
               "in a dream world the audience would turn their phones off",
               "which play was it we did the year the roof leaked?"],
    ),
    dict(
        name="end-of-term reports", short=["the reports", "report writing", "{klass}", "end of term"],
        ents=dict(klass="CLASSES", head="PEOPLE", ta="PEOPLE", pupil="PEOPLE", pupil2="PEOPLE"),
        slots=[
            dict(id="reports_due", kind="date", type="plan", topic="the report deadline",
                 q=["When are the end-of-term reports due?", "What's the deadline for getting reports in?"],
                 say=["{head} wants every report on the desk by {v}",
                      "reports have to be in by {v}, no extensions, {head} was very clear",
                      "the deadline for reports is {v}"]),
            dict(id="parents_night", kind="date", type="event", topic="parent-teacher night",
                 q=["When is parent-teacher night?", "What date are the parent-teacher meetings?"],
                 say=["parent-teacher night is {v}", "we've the parents in on {v}",
                      "the parent-teacher meetings fall on {v}, right after the reports go out"]),
            dict(id="pupil_total", kind="number", num=(18, 34), fmt=["{} pupils", "{} children"],
                 type="knowledge", topic="the class size",
                 q=["How many pupils are in {klass}?", "How many kids do I have to write reports for?"],
                 say=["I've {v} in {klass} this year", "{klass} is {v}, so that's a lot of reports",
                      "there's {v} in the room now with the new arrivals"]),
            dict(id="comment_limit", kind="number", num=(60, 240), fmt=["{} words", "{} words max"],
                 type="knowledge", topic="the comment word limit",
                 q=["What's the word limit for each report comment?", "How long can the comments be?"],
                 say=["the comment box takes {v}", "we're to keep each comment to {v}",
                      "the new system cuts you off at {v}"]),
            dict(id="class_trip", kind="place", pool="OUTINGS", type="plan", topic="the end-of-term trip",
                 q=["Where is {klass} going for the end-of-term trip?", "Where's the class trip this year?"],
                 say=["the end-of-term trip is to {v}", "we're bringing them to {v} on the last week",
                      "{head} signed off on {v} for the trip"]),
        ],
        facts=[("relationship", "{ta} is my classroom assistant, honestly I'd be lost otherwise"),
               ("event", "{pupil} finally cracked long division on {day}, I nearly cried"),
               ("decision", "we're not giving grades in the comments this year, just next steps"),
               ("knowledge", "the report software logs you out if you go and make a cuppa, lost a whole comment to it"),
               ("relationship", "{pupil2}'s mam is on the board of management, so tread carefully"),
               ("preference", "I write the reports at the kitchen table, never in the staffroom"),
               ("plan", "I'll do the maths comments first and leave the English ones for the weekend"),
               ("decision", "{head} says no photocopied comments, every child gets something personal")],
        loops=[dict(acts=["write the reports for the top table", "get the top table's reports written"],
                    opens=["the top table's reports aren't going to write themselves"],
                    done=["the reports are all written up for the top table",
                          "the last of the top table's comments went in last night",
                          "top table's reports are in the system, proofread and everything"]),
               dict(acts=["send the trip permission slips home", "get the permission slips out to the parents"],
                    opens=["someone has to send the permission slips home and it'll be me",
                           "there's a pile of permission slips on my desk going nowhere"],
                    done=["the slips came back signed, all bar {pupil}",
                          "every parent has the permission slip now",
                          "the permission slips went home in the schoolbags on {day}"]),
               dict(acts=["book the bus for the trip", "ring the bus company about the trip"],
                    opens=["we've no bus for the trip yet, that's on me"],
                    done=["the bus company rang back, we're sorted for the trip",
                          "there's a coach booked for the trip, {ta} double-checked"]),
               dict(acts=["update {pupil}'s learning support plan", "do the needful on {pupil}'s support plan"],
                    opens=["{pupil}'s support plan is badly out of date and it's my name on it"],
                    done=["{pupil}'s support plan is updated and filed",
                          "{head} has the new support plan for {pupil} now"])],
        asks=[("how do I say a child is lazy without saying a child is lazy?",
               "Try framing it as a next step: 'would benefit from taking more initiative in independent tasks' "
               "or 'is capable of more when fully engaged'."),
              ("any tips for writing a whole class's worth of reports without them all sounding the same?",
               "Jot down one specific moment for each child before you start, and open each comment with it - "
               "the rest flows more individually from there."),
              ("I have written the word 'enthusiastic' so many times it's lost all meaning", "Semantic satiation "
               "strikes again. 'Eager', 'keen' and 'throws herself into' can give it a rest.")],
        maybe=["if I had a euro for every 'needs to focus more' I'd retire tomorrow",
               "someday the department will give us a report template that works, but I won't hold my breath",
               "there was a website with comment banks, what was it called?"],
    ),
    dict(
        name="budget wedding", short=["the nuptials", "wedding bits", "our big day"],
        ents=dict(fiance="PEOPLE", mil="PEOPLE", bestie="PEOPLE", uncle="PEOPLE"),
        slots=[
            dict(id="big_day_date", kind="date", type="plan", topic="our wedding date",
                 q=["What day are we getting married?", "What date did we set for the wedding?"],
                 say=["we've set the date, it's {v}", "{fiance} and I are getting married on {v}, finally",
                      "the big day is {v}, so no getting cold feet now"]),
            dict(id="wedding_spend", kind="number", num=(8, 32), fmt=["£{}k", "£{},000"], type="decision",
                 topic="the wedding budget",
                 q=["What did we cap the wedding spend at?", "What's the wedding costing us, all told?"],
                 say=["we've said {v} for the whole thing and not a penny more",
                      "the wedding budget is {v}, and {mil} can say what she likes",
                      "all in, we're keeping it to {v}"]),
            dict(id="guest_total", kind="number", num=(40, 140), fmt=["{} guests", "{} people"],
                 type="knowledge", topic="the wedding numbers",
                 q=["What's the headcount for the wedding?", "How many are on the guest list?"],
                 say=["the guest list is at {v}, and that's after a cull",
                      "we're having {v}, which is small by our family's standards",
                      "{v} said yes to the invite"]),
            dict(id="reception_spot", kind="place", pool="RECEPTIONS", type="plan", topic="the reception spot",
                 q=["Where is the wedding reception?", "Where are we having the reception?"],
                 say=["the reception's at {v}, we fell in love with it",
                      "we booked {v} for the afters", "{v} is doing the reception"]),
            dict(id="food_people", kind="name", pool="CATERERS", type="decision", topic="our caterers",
                 q=["Who's feeding the guests at the wedding?", "Which catering crowd did we go with?"],
                 say=["{v} are feeding everyone", "we went with {v} for the catering, the tasting was unreal",
                      "the caterers are {v}"]),
        ],
        facts=[("decision", "no sit-down meal, we're doing a buffet and a big dessert table"),
               ("relationship", "{bestie} is my maid of honour, obviously"),
               ("relationship", "{uncle} is going to DJ, whether we like it or not"),
               ("event", "we had the tasting on {day} and {fiance} went back for thirds"),
               ("preference", "I don't want a big white dress, something I can wear again"),
               ("plan", "we'll do the flowers ourselves from the cash and carry the morning before"),
               ("knowledge", "you have to give notice to the registrar at least three months ahead"),
               ("decision", "kids are welcome, we're not doing the adults-only thing")],
        loops=[dict(acts=["get the invitations printed", "sort the invitations with the printers"],
                    opens=["the invites are still a design on my laptop"],
                    done=["the invitations are printed and stacked on the hall table",
                          "invites are back from the printers and they look the business"]),
               dict(acts=["give {uncle} the playlist", "send {uncle} the do-not-play list"],
                    opens=["{uncle} needs to be told what not to play, and that job's mine"],
                    done=["{uncle} has the playlist now, and the banned list",
                          "the do-not-play list is with {uncle}, underlined twice"]),
               dict(acts=["take the rings to the jeweller for resizing", "drop the rings into the jeweller's"],
                    opens=["my ring still spins round my finger, must do something about that"],
                    done=["the rings fit now, the jeweller was very good",
                          "rings are back from the jeweller, sized right",
                          "my ring stays put on my finger now"]),
               dict(acts=["pay the deposit on the venue", "settle up the deposit with the venue"],
                    opens=["the venue rang looking for the deposit, so that's on me before they give the date away"],
                    done=["the venue has its deposit now", "deposit went through on {day}, we're locked in",
                          "we've the receipt for the venue deposit on the fridge"])],
        asks=[("how do you politely not invite someone's new boyfriend?",
               "Keep it about numbers, not the person: 'we've had to keep plus-ones to long-term partners to stay "
               "within the venue limit' is kind and hard to argue with."),
              ("what do people usually skip to save money on a wedding?",
               "Favours, printed orders of service, a separate evening venue and big floral arches are common cuts "
               "- most guests never notice they're missing."),
              ("my future mother-in-law has opinions about the napkins", "Ah, the napkin wars. Maybe give her one "
               "small thing to own outright - it often calms the rest.")],
        maybe=["if we eloped we'd save a fortune, but Mam would never forgive me",
               "in a perfect world it wouldn't rain, but this is the west of Ireland",
               "what do you call the bit where they tie the hands together?"],
    ),
    dict(
        name="podcast launch", short=["the podcast", "the pod", "{pod}"],
        ents=dict(pod="PODCASTS", cohost="PEOPLE", editor="PEOPLE", artist="PEOPLE"),
        slots=[
            dict(id="first_ep_date", kind="date", type="plan", topic="the first episode release",
                 q=["When does the first episode of {pod} come out?", "What's the release date for episode one?"],
                 say=["episode one of {pod} drops on {v}", "we're putting the first ep out {v}",
                      "{cohost} and I agreed {v} for the first episode, no more faffing"]),
            dict(id="ep_minutes", kind="number", num=(20, 75), fmt=["{} minutes", "{} mins"], type="decision",
                 topic="the episode length",
                 q=["How long are the {pod} episodes?", "What length are we aiming for per episode?"],
                 say=["we're keeping episodes to about {v}", "each ep runs {v}, tops",
                      "{editor} says {v} is the sweet spot"]),
            dict(id="pod_host", kind="name", pool="PODHOSTS", type="decision", topic="the podcast host platform",
                 q=["Which hosting platform is {pod} on?", "Where are we hosting the podcast?"],
                 say=["we signed up with {v} for hosting", "{pod} is hosted on {v}",
                      "hosting is on {v}, cheapest one that does the stats"]),
            dict(id="mic_model", kind="thing", pool="MICS", type="preference", topic="the microphone",
                 q=["Which mic am I recording on?", "What microphone did we buy for the pod?"],
                 say=["I'm recording on a {v}, bought it second-hand", "we've both got the {v}",
                      "went with the {v} in the end"]),
            dict(id="first_guest", kind="name", pool="PEOPLE", type="relationship", topic="the first guest",
                 q=["Who's the first guest on {pod}?", "Who are we interviewing for episode one?"],
                 say=["{v} said yes to being our first guest", "first guest is {v}, provided nobody bottles it",
                      "we've got {v} lined up for the first interview"]),
        ],
        facts=[("relationship", "{cohost} is co-hosting, we've been mates since primary school"),
               ("relationship", "{editor} is editing the audio for mates' rates"),
               ("decision", "no video, audio only, I'm not doing my hair for every recording"),
               ("event", "we recorded a pilot on {day} and the dog barked the whole way through"),
               ("knowledge", "the podcast apps can take a few days to list a new show"),
               ("plan", "we'll record in {cohost}'s spare room, it's got carpet and curtains"),
               ("preference", "I'd rather it sound natural than over-polished"),
               ("relationship", "{artist} is doing the cover art, an absolute genius with a pencil")],
        loops=[dict(acts=["get the cover art finished with {artist}", "chase {artist} for the cover art"],
                    opens=["still no cover art from {artist}, and I hate to nag"],
                    done=["the cover art is in, it's gas, everyone loves it",
                          "{artist} sent the final artwork on {day}",
                          "we've a cover now, and it's on the show page already"]),
               dict(acts=["write the show description", "do up the blurb for the show page"],
                    opens=["the blurb for the show page is a blank box still"],
                    done=["the show page has its description now",
                          "blurb's written and uploaded, {cohost} approved it"]),
               dict(acts=["sound-treat the spare room", "hang blankets in the spare room for the echo"],
                    opens=["the echo in that spare room is shocking, we'll have to do something"],
                    done=["there are duvets nailed to every wall of the spare room now, sounds class",
                          "spare room's deadened, you'd swear it was a studio"]),
               dict(acts=["send {editor} the raw files", "get the raw audio over to {editor}"],
                    opens=["{editor} is sitting twiddling thumbs waiting on the raw audio from me"],
                    done=["{editor} has the raw files", "raw audio's with {editor} since {day}",
                          "the raw files are uploaded to {editor}'s folder, every last one"])],
        asks=[("how do you stop saying 'like' and 'you know' every five seconds on mic?",
               "Pause instead - silence sounds far better on a recording than you'd think. Listening back to a "
               "clip of yourself once a week also trains it out quickly."),
              ("should we launch with a few episodes at once?",
               "Many shows launch with a small batch so new listeners can binge and the apps see early activity; "
               "after that a steady schedule matters more than volume."),
              ("I hate the sound of my own voice recorded", "Nearly everyone does - it's the lack of the bone "
               "resonance you normally hear. Listeners just hear you.")],
        maybe=["if it takes off we could do live shows, but let's not get ahead of ourselves",
               "in fairness I should probably listen to more podcasts myself",
               "what do you call that app that cleans up background noise?"],
    ),
    dict(
        name="move abroad", short=["the emigration", "the big move", "moving"],
        ents=dict(agent="PEOPLE", landlord="PEOPLE", helper="PEOPLE"),
        slots=[
            dict(id="new_city", kind="place", pool="DESTINATIONS", type="decision", topic="our destination city",
                 q=["Which city are we moving to?", "Where are we relocating?"],
                 say=["it's decided, we're off to {v}", "we're moving to {v}, if you can believe it",
                      "{v} it is, the job offer came through"]),
            dict(id="flight_out", kind="date", type="plan", topic="the flight out",
                 q=["What day are we flying out?", "What date is our flight?"],
                 say=["our flight out is {v}", "we fly on {v}, one-way, which is terrifying",
                      "we've booked the flights for {v}"]),
            dict(id="movers", kind="name", pool="REMOVALISTS", type="decision", topic="the removal firm",
                 q=["Which removal company are we using?", "Who's shipping our stuff?"],
                 say=["we've booked {v} to ship everything", "{v} are doing the removal",
                      "the removals are with {v}, they quoted lowest"]),
            dict(id="container_volume", kind="number", num=(12, 60), fmt=["{} cubic metres", "{} cbm"],
                 type="knowledge", topic="the shipping space",
                 q=["How much container space did we book?", "How much room have we got in the shipping container?"],
                 say=["we've booked {v} in a shared container", "the surveyor reckons we need {v}",
                      "it's {v}, so the piano's staying"]),
            dict(id="rent_monthly", kind="number", num=(1100, 2900), fmt=["${} a month", "${:,} monthly", "${} per month"],
                 type="decision", topic="the rent over there",
                 q=["How much rent will we be paying over there?", "What are we paying a month for the flat abroad?"],
                 say=["the rent's {v}, which is daylight robbery", "we're paying {v} for the flat",
                      "{agent} got us a place at {v}"]),
        ],
        facts=[("relationship", "{agent} is the relocation agent the new job gave us"),
               ("decision", "we're selling the car rather than shipping it, it'd cost more than it's worth"),
               ("event", "the visa came through on {day}, I screamed in the car park"),
               ("knowledge", "the shipping takes weeks at sea, so we'll be living out of suitcases for a while"),
               ("plan", "we'll stay with {helper}'s cousins for the first fortnight"),
               ("relationship", "{landlord} is our landlord here and fair play, very decent about the notice"),
               ("preference", "I want to be near the sea, I don't care if the flat's smaller"),
               ("decision", "{dog} is coming with us, it's non-negotiable")],
        loops=[dict(acts=["give notice to {landlord}", "tell {landlord} we're leaving"],
                    opens=["someone has to tell {landlord} and it'll be me"],
                    done=["{landlord} knows now, took it well", "notice is in with {landlord}, in writing",
                          "{landlord} has our letter, so the lease ends when we go"]),
               dict(acts=["sort the pet passport for {dog}", "get {dog}'s travel papers done"],
                    opens=["{dog}'s papers are the thing that keeps me up at night"],
                    done=["{dog} has a pet passport now, microchip and all",
                          "the vet signed off {dog}'s travel papers on {day}"]),
               dict(acts=["cancel the broadband", "ring the broadband crowd to cancel"],
                    opens=["I'd best ring the broadband crowd before they charge us another month"],
                    done=["broadband's cancelled from the end of the month",
                          "we've a cancellation reference from the broadband lot, finally",
                          "the broadband people finally let us go"]),
               dict(acts=["get the documents apostilled", "do the needful with the apostille for the certificates"],
                    opens=["the certificates still need apostilling and nobody else can do it"],
                    done=["the certificates came back stamped", "the apostilles are done and in the folder"])],
        asks=[("what do people forget when they move countries?",
               "Redirecting post, closing small subscriptions, getting a dental check before leaving, bringing "
               "copies of prescriptions, and notifying the tax office here."),
              ("how do you say goodbye to everyone without being a wreck?",
               "A single relaxed get-together beats a string of farewells - and remind yourself video calls mean "
               "you're not really disappearing."),
              ("I keep finding boxes of stuff I didn't know we owned", "Classic moving discovery. A 'decide later' "
               "box that you're strict about can save your sanity.")],
        maybe=["if it doesn't work out we can always come home, that's what I keep telling Mam",
               "someday I'll learn to drive on the other side properly",
               "what's that website that compares international money transfers?"],
    ),
    dict(
        name="village fete", short=["the fete", "fete planning", "the summer fete"],
        ents=dict(chair="PEOPLE", baker="PEOPLE", raffler="PEOPLE"),
        slots=[
            dict(id="fete_day", kind="date", type="plan", topic="the fete date",
                 q=["When's the village fete?", "What date is the fete on?"],
                 say=["the fete's on {v}, rain or shine", "we've the fete pencilled for {v}",
                      "committee voted and it's {v} for the fete"]),
            dict(id="fete_ground", kind="place", pool="FIELDS", type="plan", topic="the fete field",
                 q=["Where's the fete being held?", "Which field have we got for the fete?"],
                 say=["we're holding it in {v}", "{v} is ours for the day", "the fete's going on in {v}"]),
            dict(id="fete_takings_goal", kind="number", num=(1200, 4800), fmt=["£{}", "£{:,}"], type="decision",
                 topic="what we hope to take in",
                 q=["What's the fete meant to bring in?", "What's the fete fundraising target?"],
                 say=["we're aiming to raise {v} for the roof fund", "we've set our sights on {v}",
                      "{chair} wants {v} out of it, ambitious"]),
            dict(id="top_prize", kind="thing", pool="PRIZES", type="knowledge", topic="the raffle top prize",
                 q=["What's the top prize in the fete raffle?", "What's first prize in the raffle?"],
                 say=["first prize in the raffle is {v}", "the top prize is {v}, donated, would you believe",
                      "we've got {v} as the big raffle prize"]),
            dict(id="stall_tally", kind="number", num=(14, 45), fmt=["{} stalls", "{} stallholders"],
                 type="knowledge", topic="the stall count",
                 q=["How many stalls are booked for the fete?"],
                 say=["we've {v} signed up", "{v} have paid their pitch fee", "stall count is {v}"]),
        ],
        facts=[("relationship", "{chair} chairs the committee and runs it like a military operation"),
               ("relationship", "{baker} does the cake stall every year, the lemon drizzle sells out by noon"),
               ("decision", "no bouncy castle this year, the insurance was a joke"),
               ("event", "we had the committee meeting on {day} and it went on for hours"),
               ("knowledge", "you need a licence from the council for the raffle if the prizes are worth much"),
               ("plan", "we'll put the dog show on straight after lunch"),
               ("preference", "I'd rather run the tombola than be anywhere near the barbecue")],
        loops=[dict(acts=["ring the council about the raffle licence", "get onto the council about the licence"],
                    opens=["someone has to ring the council and it'll be me",
                           "no word yet from the council on the licence"],
                    done=["council rang back, we're sorted for the raffle",
                          "the licence is pinned to the noticeboard in the parish office"]),
               dict(acts=["print the raffle tickets", "get the raffle books done up"],
                    opens=["there's not a raffle ticket printed yet, and guess who's doing it"],
                    done=["the raffle books are printed and numbered",
                          "{raffler} has the raffle books now and is flogging them after Mass"]),
               dict(acts=["borrow gazebos from the scouts", "ask the scouts for the loan of their gazebos"],
                    opens=["we're short on gazebos, I said I'd ask the scouts"],
                    done=["the scouts are lending us the gazebos, they'll drop them up the night before",
                          "gazebos are stacked in {chair}'s garage",
                          "we've gazebos coming out our ears now, the scouts came good"])],
        asks=[("what sells best at a fete cake stall?",
               "Traybakes and anything sold by the slice - brownies, flapjacks, lemon drizzle - plus a few whole "
               "cakes at the front to catch the eye."),
              ("how do you stop a committee meeting dragging on?",
               "Circulate a short agenda beforehand with a time against each item, and park anything off-topic "
               "for 'any other business' at the end."),
              ("I've been roped into everything again, haven't I", "It does sound that way! Maybe pick the bits "
               "you enjoy and hand off the rest where you can.")],
        maybe=["if we had a proper sound system we could do a talent show, maybe next year",
               "one of these years someone else will volunteer to be treasurer",
               "who was it did the face painting the year before last?"],
    ),
]

# --- corrections: (cue, frame, value kinds it suits (empty: any), same session / later / any) ---------------
CORRECTIONS = [
    ("misspoke", "Oh no I tell a lie, {say}", (), "any"),
    ("misspoke", "Ah sorry, wrong one - it's {v}, not {old}", (), "same"),
    ("misspoke", "What am I saying, {v}! Not {old} at all", (), "same"),
    ("misspoke", "Ignore me, my head's scrambled - {say}", (), "any"),
    ("actually", "Ah no, actually, {say}", (), "any"),
    ("actually", "Hold on, actually {topic} is {v}", (), "same"),
    ("explicit", "I need to correct myself about {topic} - {v}, never {old}", (), "any"),
    ("explicit", "Just so you have it right, {topic} is {v} and not {old}", (), "any"),
    ("scratch", "Forget what I said earlier about {topic}, {say}", (), "any"),
    ("scratch", "No wait, scrap that - {say}", (), "same"),
    ("moved", "Hang on, they've shifted {topic} to {v}", ("date", "place"), "later"),
    ("moved", "Would you believe {topic} got moved to {v}", ("date", "place"), "later"),
    ("moved", "They've bumped {topic} back to {v}, don't get me started", ("date",), "later"),
    ("change", "Well, that's all changed now. {Say}", (), "later"),
    ("change", "Bit of a rethink: {say}, so not {old} any more", (), "later"),
    ("change", "We had a chat over the dinner and {say} now", (), "later"),
    ("updated", "{Topic}'s gone up to {v}, don't ask", ("number",), "later"),
    ("updated", "{Topic} has come down to {v}, thank God", ("number",), "later"),
    ("is-now", "It's {v} now for {topic}, not {old}", (), "later"),
    ("is-now", "Right so {topic} is {v} these days", (), "later"),
    ("implicit", "{Say}", (), "later"),
    ("implicit", "You won't believe the week I've had. Anyway, {say}", (), "later"),
    ("implicit", "Mad news, {say}", (), "later"),
    ("implicit", "So after all that, {say}", (), "later"),
    ("updated", "Small update on {topic} - {v} now, it was {old}", (), "later"),
    ("updated", "Latest on {topic}: {say}", (), "later"),
    ("misspoke", "Oh wait, it's {v}, not {old} - I was looking at last year's notes", (), "same"),
    ("moved", "{Topic} is pushed out to {v} now, which suits nobody", ("date",), "later"),
    ("moved", "They've brought {topic} forward to {v}, so that's a scramble", ("date",), "later"),
    ("change", "Turns out {say}, after all the fuss", (), "later"),
]

LOOP_OPEN = ["I'd best {act} {due}", "that's one for me - I'll {act}", "must remember to {act} {due}",
             "reckon I'll {act} {due}", "somebody needs to {act}, and sure it'll be me",
             "I'm going to have to {act} at some stage", "leave that with me and I'll {act} {due}",
             "we still need to {act}, I said I'd do it", "I told them I'd {act} {due}",
             "would you keep me honest, I have to {act}", "making a mental note here: {act} {due}",
             "I keep meaning to {act} and it keeps slipping", "top of my pile this week: {act}",
             "I'll get round to it {due}, I have to {act}",
             "it's on me to {act}", "nobody else is going to {act}, so I will, {due}", "I said I'd {act}, so I'd better",
             "{due} I'm going to sit down and {act}", "sure I'll {act} while I'm at it"]
DUES = ["this arvo", "first thing Monday", "before the weekend's out", "by Wednesday at the latest",
        "midweek", "before half-term", "in the morning", "this evening", "before Friday week",
        "before the month's out"]

ACK = ["Righto, noted.", "Grand, that's noted.", "Lovely, got that.", "Okay, I have that down.",
       "Fair enough - sounds like a plan.", "Ah, good to know.", "Okay, thanks for filling me in.",
       "That's very sensible.", "I'll keep that in mind.", "Gotcha. Anything else on that front?"]
ACK_VALUE = ["Lovely - {topic} is {v}, I have it.", "Okay, {v} it is for {topic}.", "Grand, I'll keep {v} in mind.",
             "So {topic}: {v}. Got it."]
ACK_CHANGE = ["No bother - {topic} is {v} now instead of {old}.", "Changed: {v} rather than {old}.",
              "Okay, I've swapped {old} out for {v}.", "Right, going with {v} from here on."]
ACK_TODO = ["I'll hold you to that one.", "That's on your list now.", "Okay, I'll keep it on the pile for you.",
            "Noted down as one of yours."]
ACK_DONE = ["Brilliant, that's one off the list.", "Ah great, ticking that off.", "Good stuff - that's done then.",
            "Lovely, one less thing to think about."]

OPENERS = ["hiya", "well hello again", "me again!", "right so, {short}", "you'll never guess - {short} again",
           "morning, sorry, bit frazzled", "ok, quick word about {short}?", "evening! finally sat down",
           "how're things", "g'day", "so listen", "back for more, sorry", "just a quick one before I forget"]
GREETINGS = ["Hiya {me}! What's the story?", "Hello {me}, good to hear from you.", "Hey there - fire away.",
             "Go on, I'm listening.", "Hi {me}! How can I help today?", "Well hello! What's happening?"]
CLOSERS = ["right, I'll let you go", "that's me done, cheers", "must dash, the kettle's on",
           "grand so, talk soon", "ok I'm off, thanks a million", "lovely, ta"]
GOODBYES = ["Mind yourself!", "Chat soon, {me}.", "Good luck with it all.", "Any time at all.",
            "Take care now."]
FILLERS = [("hang on, someone's at the door", "No worries, I'll be here."), ("ha", "😊"),
           ("yeah", "Yep, okay."), ("where was I at all", "Last I heard, it was {short} we were on."),
           ("sorry, the dog's going mental", "Ha, deal with the dog first."), ("ah sure look", "Indeed."),
           ("cheers", "Not a bother!"), ("give me a sec", "Sure thing, go on.")]
RECAP_ASKS = ["where are we at with {short}?", "can you remind me how we're fixed for {short}?",
              "run me through {short} quickly?", "what have I told you so far?"]
RECAP_TODO = ["Still to sort: {todo}", "Outstanding bits: {todo}", "Yours to do: {todo}"]
RECAP = ["Here's {short} so far: {body}.", "Where things are at: {body}.", "The state of play - {body}.",
         "So, to pull it together: {body}."]
LEADS = ["fresh news on {short}: ", "right, {short} - ", "so you know, ", "little update, ", "oh before I forget, "]
LOWER_OK = (r"(?:We|The|Our|Going|Counted|Shearing|Curtain|Opening|Tickets|Reports|Parent|There|Episode|Each|"
            r"Hosting|First|It's|Went|Rent|Committee|Stall|Ah|Oh|Hold|Hang|Would|Well|Bit|Right|So|Small|Latest|"
            r"Just|Let|Forget|No|Ignore|What|Mad|You|Must|Reckon|Somebody|Leave|Mental|My|That's|Still|Nobody|"
            r"Someone|Not|Council|Invites|Posters|Costumes|Hall|Shearers|Colostrum|Broadband|Gazebos|Notice)\b")
JOINERS = [" And another thing, ", " Oh yeah, and ", " On top of that, ", " As well, "]

PERSONAL = [("identity", "I work at {work}, three days a week"),
            ("identity", "I'm from {town} originally, not that you'd know from the accent now"),
            ("relationship", "my other half {hubby} works shifts, so I'm mostly on my own in the evenings"),
            ("relationship", "my sister {sis} lives around the corner and drops in most days"),
            ("preference", "I don't eat meat, haven't in years"),
            ("preference", "keep it brief with me, I'm usually reading this on the bus"),
            ("relationship", "{dog} is a rescue, a lurcher cross, and a total eejit"),
            ("identity", "I'm the eldest of a big family, so organising is in my blood"),
            ("preference", "I can't abide coriander"),
            ("event", "{hubby} and I were away in Kerry for a long weekend"),
            ("preference", "there's no talking to me in the mornings till the tea's in")]

CHITCHAT = [("what's the best way to get a stain out of a wool jumper?", "Blot, don't rub, then soak it in cool "
             "water with a little wool wash. Never hot water - it'll felt."),
            ("it's lashing rain again", "Sounds like a day for the fire and a good book."),
            ("I've had about four cups of tea already", "Might be time to switch to water for a bit!"),
            ("what can I make with a tin of chickpeas and not much else?", "Roast them with oil, salt and "
             "whatever spice you have for a crunchy snack, or mash them with lemon for a quick spread."),
            ("give me something good to watch tonight", "A cosy crime drama is hard to beat on a weeknight - "
             "low effort, high reward."),
            ("why is the week before a holiday always the longest?", "Anticipation stretches time - you're "
             "counting hours you'd normally not notice."),
            ("my sourdough starter smells like nail varnish", "That usually means it's hungry. Feed it more "
             "often for a couple of days and it should settle."),
            ("go on, surprise me with a random fact", "Wombats produce cube-shaped droppings, which stops them rolling "
             "away."),
            ("should I go for a walk or have a lie down", "Walk first, while there's daylight - the lie down "
             "will feel even better after."),
            ("is toast a proper dinner", "On the right night, absolutely. Beans on top and it's practically a meal "
             "plan."),
            ("how do you stop a kettle going all limescaley?", "Boil up a mix of water and white vinegar or "
             "citric acid, leave it an hour, then rinse well."),
            ("the lads next door are playing music at all hours", "That's wearing. A friendly word often works "
             "better than people expect."),
            ("summer or winter, which is better?", "I can see the case for both - long evenings versus cosy "
             "nights in."),
            ("I finally sorted the hot press", "A tidy hot press is a thing of beauty. Enjoy it."),
            ("how do I keep the slugs off my lettuces?", "Copper tape around pots, beer traps, or a ring of "
             "crushed eggshells can all help."),
            ("my laptop sounds like a tractor", "Probably dust in the fan - a can of air blown into the vents "
             "usually settles it down."),
            ("any stretches for a sore back from bending all day?", "Child's pose, gentle cat-cow and knee-to-"
             "chest hugs, held slowly, usually ease it."),
            ("is a flat white just a small latte?", "Near enough - a flat white has less milk and a thinner "
             "foam, so the coffee comes through more."),
            ("I'd love to read more, only I nod off every night", "Try reading earlier in the evening, or on the bus "
             "- even a few pages a day adds up."),
            ("what's a nice thing to do on a bank holiday Monday?", "A long walk somewhere new, then a pub lunch "
             "or a picnic if the weather holds.")]
REQUESTS = [("drop a line to {stranger} at {org}, I'm running {n} minutes behind for {day}'s appointment",
             "Here you go:\n\nDear {stranger},\n\nJust to let you know I'm running about {n} minutes late for my "
             "appointment on {day}. Apologies for the inconvenience.\n\nKind regards,\n{me}"),
            ("sum this up for me: '{org} had {big} complaints over the winter and {stranger} wants {n} new staff "
             "to deal with them'",
             "{org} got {big} complaints over the winter; {stranger} is asking for {n} more staff."),
            ("come up with a name for a chipper owned by a fella called {stranger}",
             "How about: {stranger}'s Plaice, The Codfather, Batter Days, Fry Me to the Moon, or Salt & Vinny's."),
            ("write a short rhyme about a goat that ate {few} tea towels", "A goat with a taste for the line / "
             "ate {few} tea towels, all fine; / the farmer said 'stop!' / but she chewed the whole lot, / then "
             "burped out a sock for good time."),
            ("check this for mistakes: 'Their coming on {day} to colect the {n} chairs from {stranger}'",
             "'They're coming on {day} to collect the {n} chairs from {stranger}.' - 'they're' rather than 'their', "
             "and 'collect' takes a double l."),
            ("{stranger} wants £{n} back because the class was called off - can you draft me a reply?",
             "Hi {stranger}, sorry again about the class falling through - £{n} is on its way back to you and "
             "should land in your account shortly."),
            ("how do you say 'the bus leaves from stop {n}' in French?", "'Le bus part de l'arrêt {n}.'"),
            ("make this less cranky: '{stranger}, {org} is still waiting on £{big} from you'",
             "'Hi {stranger}, just a friendly nudge that there's a balance of £{big} outstanding with {org}.'"),
            ("packing list please, {few} days camping and it'll surely rain",
             "A good rain jacket and over-trousers, wool layers, spare socks for {few} days, a tarp, dry bags, a "
             "head torch and plenty of tea bags."),
            ("explain how a mortgage works like I'm a child", "The bank lends you money for a house now, and you "
             "pay it back bit by bit for years, plus a little extra for the favour of borrowing it.")]
DISTRACTORS = ["if I got through everything I meant to this year I'd need {few} clones",
               "what's the name of that shop that does the cheap picture frames?",
               "I should really do my tax return, but sure who wants to",
               "in theory I'd be going to yoga on Thursdays, in practice no",
               "someday I'd love to learn the fiddle",
               "the car tax is paid already, did that last week",
               "{hubby} is doing the gutters, so that's off my plate",
               "wouldn't it be lovely if the hoover worked properly",
               "I could tackle the shed this weekend, or I could have a lie-in"]
UNSURE = ["Hmm, that's news to me - not something you've mentioned.", "That one hasn't come up, I'm afraid.",
          "I've nothing on that, sorry.", "That's not something I know - shall we figure it out?"]
SHRUG = ["Ha! Know the feeling.", "Sure, why not.", "Fair play.", "Don't blame you at all.", "Ah, that's life."]
SUGGEST = [("am I missing anything?", "It could be worth ringing round everyone involved on {day} just to "
            "confirm - a quick call saves a lot of surprises."),
           ("d'you reckon it'll work?", "One thought: let it sit a day or two, then make the call on {day}."),
           ("if you were me, what would you do?", "Personally I'd write it all on one sheet and stick it on the fridge."),
           ("any bright ideas?", "Maybe rope in a friend to take a couple of the smaller jobs off you.")]
